import { configDefaults, defineConfig } from 'vitest/config'

// Tests that time the server's answers against a wall-clock budget: they run after the rest, one
// file at a time, so another test file's work is not what they measure (decision 292).
const timed = ['server/jobs/never-blocks.test.ts', 'server/realtime/http-endpoints.test.ts']

// Unit and integration tests run without the React Router Vite plugin; they import modules directly.
export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    environment: 'node',
    // Fails a test file that leaves a test database behind (not dropped, or a handle not closed).
    setupFiles: ['tests/integration/no-leftovers.ts'],
    // CI prints every test, so its log shows each suite ran on SQLite and on PostgreSQL.
    reporters: process.env.CI ? ['verbose'] : ['default'],
    testTimeout: 20_000,
    // Hooks start servers and drop databases: on a loaded 2-core machine that can take a minute.
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      // Two files at a time: Vitest's default on two cores is one, which left a core idle while a
      // file waited on PostgreSQL or a server it spawned (9.3 min against 5.5).
      { extends: true, test: { name: 'together', include: ['server/**/*.test.ts', 'app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'], exclude: [...configDefaults.exclude, ...timed], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'timed', include: timed, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
})
