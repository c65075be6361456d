import { defineConfig } from 'vitest/config'

// Unit and integration tests run without the React Router Vite plugin; they import modules directly.
export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: ['server/**/*.test.ts', 'app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'tests/security/**/*.test.ts'],
    environment: 'node',
    // Fails a test file that leaves a test database behind (not dropped, or a handle not closed).
    setupFiles: ['tests/integration/no-leftovers.ts'],
    // CI prints every test, so its log shows each suite ran on SQLite and on PostgreSQL.
    reporters: process.env.CI ? ['verbose'] : ['default'],
    testTimeout: 20_000,
    // Hooks start servers and drop databases: on a loaded 2-core machine that can take a minute.
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
  },
})
