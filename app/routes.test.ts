import { afterEach, expect, test, vi } from 'vitest'

type Entry = { path?: string; children?: Entry[] }
const testRoutes = ['_test/status/:status', '_bench/trivial']

/** The paths of app/routes.ts as a build made with `env` reads it (the table is fixed at build time). */
async function pathsBuiltWith(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value)
  vi.resetModules()
  const routes = (await import('./routes.ts')).default as Entry[]
  const paths = (entries: Entry[]): string[] =>
    entries.flatMap((entry) => [...(entry.path ? [entry.path] : []), ...paths(entry.children ?? [])])
  return paths(routes)
}

afterEach(() => {
  vi.unstubAllEnvs()
})

test('a production build has no test or bench routes', async () => {
  const paths = await pathsBuiltWith({ E2E: '', BENCH: '' })
  expect(paths).toContain('projects/details/:projectId')
  for (const path of testRoutes) expect(paths).not.toContain(path)
})

test('a build for the end-to-end tests or for the bench has them', async () => {
  for (const env of [
    { E2E: '1', BENCH: '' },
    { E2E: '', BENCH: '1' },
  ])
    expect(await pathsBuiltWith(env)).toEqual(expect.arrayContaining(testRoutes))
})
