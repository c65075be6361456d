import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

// Issue 38 (decisions 316, 317): the server validates every form, so zod and conform (its zod
// adapter, and since 317 its React and DOM parts) stay out of the browser's JavaScript; the loaders
// send a schema's limits as plain data and the forms render the action's reply themselves. This reads the
// client build (`node tests/e2e/prepare.ts` or `npx react-router build` first) and fails when any
// chunk a page can load holds their code. The markers are strings only their code contains, and
// the test first checks that the packages still contain them, so a renamed marker cannot make it
// pass by finding nothing.
const root = path.resolve(import.meta.dirname, '../..')
const assets = path.join(root, 'build/client/assets')

const markers = [
  // zod's core names each schema class with $constructor("$ZodType", …); every schema reaches it.
  { name: 'zod', text: '$ZodType', in: 'node_modules/zod/v4/core/schemas.js' },
  // parseWithZod's error for a symbol path: the module every use of the adapter loads.
  {
    name: '@conform-to/zod',
    text: '@conform-to/zod does not support symbol paths',
    in: 'node_modules/@conform-to/zod/dist/v4/parse.mjs',
  },
  // useForm's context and the DOM part's field updates: every form conform renders reaches both.
  {
    name: '@conform-to/react',
    text: 'Form context is not available',
    in: 'node_modules/@conform-to/react/dist/context.mjs',
  },
  {
    name: '@conform-to/dom',
    text: 'The given element does not have a value setter',
    in: 'node_modules/@conform-to/dom/dist/dom.mjs',
  },
]

/** Every file the client manifest names for the entry and each route (its module and imports). */
function manifestFiles(files: string[]) {
  const file = files.find((f) => /^manifest-[\w-]+\.js$/.test(f))
  expect(file, 'the client build has its manifest').toBeDefined()
  const text = fs.readFileSync(path.join(assets, file!), 'utf8')
  const manifest = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
    entry: { module: string; imports: string[] }
    routes: Record<string, { module: string; imports?: string[] }>
  }
  const named = new Set([manifest.entry.module, ...manifest.entry.imports])
  for (const r of Object.values(manifest.routes))
    for (const f of [r.module, ...(r.imports ?? [])]) named.add(f)
  return [...named].map((f) => path.basename(f))
}

describe("the browser's JavaScript holds no zod and no conform", () => {
  test('the markers are in the packages themselves', () => {
    for (const m of markers)
      expect(fs.readFileSync(path.join(root, m.in), 'utf8'), `${m.name} (${m.in})`).toContain(m.text)
  })

  test('no chunk of the client build contains zod or conform', () => {
    const files = fs.readdirSync(assets).filter((f) => f.endsWith('.js'))
    // Every chunk a page loads is among the files read here.
    const named = manifestFiles(files)
    expect(named.length).toBeGreaterThan(50)
    expect(named.filter((f) => !files.includes(f))).toEqual([])
    const found = files.flatMap((f) => {
      const code = fs.readFileSync(path.join(assets, f), 'utf8')
      return markers.filter((m) => code.includes(m.text)).map((m) => `${f}: ${m.name}`)
    })
    expect(found).toEqual([])
  })
})
