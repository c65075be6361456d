import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

// `npm run proof` (issue 19): the long proofs, one after another, each printing its figures and
// failing on a violation. PROOF_PARTS picks some (security,crash,outbox-load,sqlite-suites,two-instances,no-js,lighthouse,
// soak); the build must exist (npm run build).
// - security: the authorization matrix, hub groups and fuzzing with FUZZ_RUNS inputs per endpoint
//   (1,000) on both databases (tests/security);
// - crash: 25 SIGKILLs under load on each database, 25 dropped PostgreSQL connections and 25 real
//   PostgreSQL restarts (tests/integration/crash-restart.test.ts; it restarts the machine's PostgreSQL),
//   each waiting out the outbox claims the faults left (npm test ends them: decision 359), and first
//   starts stopped at 12 moments on SQLite and 7 on PostgreSQL (first-start.test.ts; npm test 7 and 3);
// - outbox-load: the outbox under a write load on SQLite held to its targets (/healthz within
//   100 ms, no hold of the server's loop over 50 ms; npm test holds it to four times them);
// - sqlite-suites: the SQLite runs of the suites CI runs on PostgreSQL only, those taking
//   `portableDialects` (decision 351);
// - two-instances: every end-to-end spec through a balancer in front of two instances (decision 222);
// - no-js: every end-to-end spec with JavaScript off, those CI leaves out included (decision 292);
// - lighthouse: the tests tagged @proof that CI leaves out: Lighthouse's accessibility audit of the
//   journey's signed-in work screens (decision 294) and issue 39's walk-through photographs;
// - soak: npm run load for SOAK_MINUTES (30), failing on errors or live-heap growth.
const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)
const portableSuites = () =>
  fs
    .globSync(['server/**/*.test.ts', 'app/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'], { cwd: root })
    .filter((file) => /\bportableDialects\b/.test(fs.readFileSync(path.join(root, file), 'utf8')))
const steps: Record<string, { command: string; args: string[]; env: Record<string, string> }> = {
  security: {
    command: bin('vitest'),
    args: ['run', 'tests/security'],
    env: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '1000' },
  },
  crash: {
    command: bin('vitest'),
    args: ['run', 'tests/integration/crash-restart.test.ts', 'tests/integration/first-start.test.ts'],
    env: { PROOF: '1' },
  },
  'outbox-load': {
    command: bin('vitest'),
    args: ['run', 'server/jobs/never-blocks.test.ts'],
    env: { PROOF: '1' },
  },
  'sqlite-suites': {
    command: bin('vitest'),
    args: ['run', ...portableSuites()],
    env: { PORTABLE_SUITES_ON: 'sqlite' },
  },
  'two-instances': {
    command: 'sh',
    args: ['-c', `node tests/e2e/prepare.ts && ${bin('playwright')} test --project=postgres`],
    env: { E2E_TWO_INSTANCES: '1' },
  },
  'no-js': {
    command: 'sh',
    args: ['-c', `node tests/e2e/prepare.ts && ${bin('playwright')} test --project=sqlite-no-js`],
    env: { E2E_ALL_NO_JS: '1' },
  },
  sqlite: {
    command: 'sh',
    args: ['-c', `node tests/e2e/prepare.ts && ${bin('playwright')} test --project=sqlite`],
    env: { E2E_ALL_SQLITE: '1' },
  },
  lighthouse: {
    command: 'sh',
    args: [
      '-c',
      `node tests/e2e/prepare.ts && ${bin('playwright')} test --grep @proof --project=sqlite --project=postgres`,
    ],
    env: { E2E_PROOF: '1' },
  },
  soak: {
    command: process.execPath,
    args: ['bench/load.ts', '--minutes', process.env.SOAK_MINUTES ?? '30', '--users', '24'],
    env: {},
  },
}
// Every part, in this order, unless PROOF_PARTS names some.
const parts = process.env.PROOF_PARTS?.split(',') ?? Object.keys(steps)
const results: string[] = []
for (const part of parts) {
  const step = steps[part]
  if (!step) throw new Error(`PROOF_PARTS: unknown part ${part} (${Object.keys(steps).join(', ')})`)
  const started = Date.now()
  const run = spawnSync(step.command, step.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  })
  results.push(
    `${part}: ${run.status === 0 ? 'PASS' : 'FAIL'} in ${Math.round((Date.now() - started) / 60_000)} min`,
  )
}
console.log(`\nproof:\n${results.map((r) => `  ${r}`).join('\n')}`)
process.exit(results.every((r) => r.includes('PASS')) ? 0 : 1)
