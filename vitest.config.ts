import fs from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'

// Files that load a server or hold answers to a time budget assume the machine is theirs (decision
// 296): a sibling file on the other core once made crash-restart's load acknowledge nothing between
// kills (decision 292). They run one at a time, after every other file has run two at a time. A file
// that only starts a server or a process and speaks to it, with no time budget, runs two at a time
// (decision 359). A new test that loads or times belongs here.
const alone = [
  // A write load on servers it kills, or first starts stopped at moments of a measured timeline.
  'tests/integration/crash-restart.test.ts',
  'tests/integration/first-start.test.ts',
  // Answers within a time: the outbox under load and its delivery, hubs' keep-alives and timeouts,
  // sockets closed or bodies given up after a few hundred milliseconds, sign-in's equal timing.
  'server/jobs/*.test.ts',
  'server/realtime/backplane-redis.test.ts',
  'server/realtime/conformance.test.ts',
  'server/realtime/fanout.test.ts',
  'server/realtime/http-endpoints.test.ts',
  'server/realtime/keepalive.test.ts',
  'server/modules/identity/identity.test.ts',
  'tests/integration/bodies-cut-short.test.ts',
  'tests/integration/request-guard.test.ts',
  'tests/integration/request-guard-fuzz.test.ts',
]
const aloneFiles = fs.globSync(alone, { cwd: import.meta.dirname })

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
          // One worker process runs file after file without loading the server's modules again:
          // half of this group's time was each file's fresh import (decision 359).
          isolate: false,
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
