import os from 'node:os'
import path from 'node:path'
import fs from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

// End-to-end tests drive Debian's Chromium (no browser download) against the built server: the
// visitor's pages against a shared server on a SQLite file with the demo, every other spec against a
// server of its own on the project's database (tests/e2e/private-server.ts). A third project turns
// JavaScript off.
// The browser is Debian's old headless shell of the same Chromium when it is installed (package
// chromium-headless-shell, as Playwright itself runs headless tests): the same engine without the
// full browser's UI layers, and a third less time per spec (decision 297). CHROMIUM_PATH overrides.
const headlessShell = '/usr/bin/chromium-headless-shell'
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath:
      process.env.CHROMIUM_PATH ?? (fs.existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  },
}
// E2E_PORT moves the shared servers' ports, so two runs on one machine do not collide.
const basePort = Number(process.env.E2E_PORT ?? 3311)
export const ports = { sqlite: basePort, postgres: basePort + 1 }
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-e2e-'))
const postgresUrl =
  process.env.E2E_DATABASE_URL ??
  `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'workneer_e2e'}`

// The specs that run on PostgreSQL, and with JavaScript only there (decisions 138, 320): each drives
// writes, searches, counts, money or hubs through the server, where the two databases' SQL, locking
// and types differ. Vitest runs the same use cases on both databases; with JavaScript off these specs
// run on SQLite, so each flow still meets both databases end to end. `npm run proof` (part sqlite,
// E2E_ALL_SQLITE=1) runs them with JavaScript on SQLite too.
const postgresSpecs = [
  'journey',
  'journey-lighthouse',
  'projects',
  'payments',
  'refunds',
  'payouts',
  'invoices',
  'chat',
  'notifications',
  'close-account',
  'data-export',
  'notification-settings',
  'realtime',
  'identity',
  'dashboard',
  'findings',
  'admin-money',
  'disputes',
  'admin-content',
  'admin-users',
  'admin-catalog',
  'security',
  'oidc-two-factor',
  'change-orders',
  'deliverables',
  'timesheets',
  'hourly',
  'job-alerts',
  'shortlist',
  'invitations',
  'direct-offers',
  'verification',
  'project-review',
  'push',
  'hiring',
].map((name) => `**/${name}.spec.ts`)

// Specs whose no-JS run shows nothing the JavaScript run does not (decision 292): the server's HTML is
// the same, and their forms post as every other form does. `npm run proof` (part no-js,
// E2E_ALL_NO_JS=1) runs them without JavaScript too.
const noJsProofOnly =
  process.env.E2E_ALL_NO_JS === '1'
    ? []
    : [
        'admin-catalog',
        'admin-content',
        'admin-money',
        'admin-roles',
        'admin-users',
        'injection',
        'findings',
        'dashboard',
      ].map((name) => `**/${name}.spec.ts`)

// Proofs that take long and show what the rest of the run already checks in another way (decision 294):
// Lighthouse's accessibility audit (axe passes on the same screens in CI). `npm run proof`'s part
// `lighthouse` (E2E_PROOF=1) runs them.
const proofOnly = process.env.E2E_PROOF === '1' ? [] : [/@proof/]

const serverEnv = { NODE_ENV: 'production', LOG_LEVEL: 'warn', SEED_DEMO: 'true', E2E: '1' }
// npm run proof (issue 19 item 5): the PostgreSQL project runs every spec through a balancer in
// front of two instances sharing PostgreSQL and Redis (tests/support/balancer.ts), specs with servers
// of their own included (tests/e2e/private-server.ts).
const twoInstances = process.env.E2E_TWO_INSTANCES === '1'

// The shared PostgreSQL server (with the demo) serves only `npm run proof`'s two instances, which run
// every spec on PostgreSQL: in `npm test` each PostgreSQL spec starts a server of its own.
const postgresServer = {
  command: 'node tests/support/two-instances.ts',
  url: `http://127.0.0.1:${ports.postgres}/readyz`,
  env: {
    ...serverEnv,
    PORT: String(ports.postgres),
    DATA_DIR: path.join(dataDir, 'postgres'),
    DATABASE_URL: postgresUrl,
  },
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
}

export default defineConfig({
  testDir: 'tests/e2e',
  // Names the run's database templates, which the private servers' databases are copied from, and
  // drops them at the end (tests/e2e/db-template.ts, decision 350).
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  // Two spec files at a time (decision 357): a file with a server has its own, on a database of its
  // own; the shared SQLite server serves visitors, whose few writes (a newsletter address, a contact
  // message) are each test's own and stay within its limits per client address. A file's tests run
  // in order, as they build on each other's state. E2E_WORKERS=1 runs one file at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // In CI a failed test is run once more and, if it then passes, reported as flaky (named in the
  // log, never hidden): a loaded 2-core machine makes hydration and timing races in a few tests.
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  // A trace records the page's screencast and a DOM snapshot at every step of every test, and on two
  // cores that was ~40 % of each test's time (decision 291). CI records one only for the
  // retry of a failed test, which is where it is read.
  // The service worker (decision 337) is blocked except in push.spec.ts, which proves it: elsewhere it
  // would only add its start to each navigation and hide requests from page.route.
  use: {
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    locale: 'en-US',
    serviceWorkers: 'block',
  },
  // One reviewed image per screenshot for every project: the style guide reads no data, so SQLite's
  // and PostgreSQL's (which runs it through two instances, decision 222) are the same bytes.
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}-{platform}{ext}',
  projects: [
    // Tests tagged @needs-js exist only where JavaScript runs, @no-js only where it is off.
    {
      name: 'sqlite',
      grepInvert: [/@no-js/, ...proofOnly],
      testIgnore: process.env.E2E_ALL_SQLITE === '1' ? undefined : postgresSpecs,
      use: { ...chromium, baseURL: `http://127.0.0.1:${ports.sqlite}` },
    },
    {
      name: 'sqlite-no-js',
      grepInvert: [/@needs-js/, ...proofOnly],
      testIgnore: noJsProofOnly,
      use: { ...chromium, javaScriptEnabled: false, baseURL: `http://127.0.0.1:${ports.sqlite}` },
    },
    // PostgreSQL runs what differs between the databases: the flows that write, search, count and
    // move money through the server (decision 320). Screens whose look and language do not depend
    // on the database (the shell, the style guide, the profile editor) are proven on SQLite.
    {
      name: 'postgres',
      grepInvert: [/@no-js/, ...proofOnly],
      testMatch: twoInstances ? undefined : postgresSpecs,
      use: { ...chromium, baseURL: `http://127.0.0.1:${ports.postgres}` },
    },
  ],
  webServer: [
    {
      command: 'node server/boot.js',
      url: `http://127.0.0.1:${ports.sqlite}/readyz`,
      env: { ...serverEnv, PORT: String(ports.sqlite), DATA_DIR: path.join(dataDir, 'sqlite') },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    ...(twoInstances ? [postgresServer] : []),
  ],
})
