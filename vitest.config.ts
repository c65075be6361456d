import fs from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'

// Files that start processes, load a server, or hold answers to a time budget assume the machine is
// theirs (decision 296): a sibling file on the other core once made crash-restart's load acknowledge
// nothing between kills (decision 292). They run one at a time, after every other file has run two
// at a time. A new test that spawns, loads or times belongs here.
const alone = [
  'tests/integration/**/*.test.ts',
  'tests/security/**/*.test.ts',
  'server/start-footprint.test.ts',
  'server/jobs/**/*.test.ts',
  'server/realtime/**/*.test.ts',
  'server/lib/rate-limit.test.ts',
  'server/modules/files/files.test.ts',
  'server/modules/identity/identity.test.ts',
  'server/modules/identity/public-address.test.ts',
  'server/modules/projects/race-process.test.ts',
]
// Files under those folders that neither spawn, nor load, nor time: in-process APIs on their own
// databases, pure units (decision 351). They run two at a time.
const notAlone = [
  'tests/integration/backup.test.ts',
  'tests/integration/demo.test.ts',
  'tests/integration/free-port.test.ts',
  'tests/integration/instances-share-writes.test.ts',
  'tests/security/changes.test.ts',
  'tests/security/regressions.test.ts',
  'server/realtime/client-address.test.ts',
  'server/realtime/protocol.test.ts',
]
const aloneFiles = fs.globSync(alone, { cwd: import.meta.dirname }).filter((file) => !notAlone.includes(file))

// Unit and integration tests run without the React Router Vite plugin; they import modules directly.
// The file patterns are the groups' own, not the root's: a group's include adds to the root's.
const include = [
  'server/**/*.test.ts',
  'app/**/*.test.{ts,tsx}',
  'tests/integration/**/*.test.ts',
  'tests/security/**/*.test.ts',
]

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    environment: 'node',
    // Fails a test file that leaves a test database behind (not dropped, or a handle not closed).
    setupFiles: ['tests/integration/no-leftovers.ts'],
    // One migrated and seeded database of each kind per run, which the test databases copy (decision 351).
    globalSetup: ['tests/integration/database-templates.ts'],
    // CI prints every test, so its log shows on which databases each suite ran (decision 351).
    reporters: process.env.CI ? ['verbose'] : ['default'],
    testTimeout: 20_000,
    // Hooks start servers and drop databases: on a loaded 2-core machine that can take a minute.
    hookTimeout: 60_000,
    pool: 'forks',
    // Both groups take the options above (extends: true); each names its files and its workers.
    projects: [
      {
        extends: true,
        test: {
          name: 'side-by-side',
          include,
          exclude: [...configDefaults.exclude, ...aloneFiles],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: aloneFiles, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
