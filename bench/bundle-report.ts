import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { decode } from '@jridgewell/sourcemap-codec'
import { root } from './lib.ts'

// `npm run bundle-report` (issue 38): which modules the browser's JavaScript is made of. The web app
// is built with source maps into build-report/ (the real build is left alone); every byte of each
// chunk is counted to the source it came from, and each chunk's gzip size is shared out in the same
// proportions. Prints the heaviest sources and packages, and the chunks the home page loads.
const out = path.join(root, 'build-report')
const built = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'],
  {
    cwd: root,
    env: { ...process.env, BUNDLE_REPORT: '1' },
    stdio: 'ignore',
  },
)
if (built.status !== 0) throw new Error('the build for the report failed: run BUNDLE_REPORT=1 npm run build')
const assets = path.join(out, 'client/assets')

const add = (into: Map<string, number>, from: Map<string, number>) => {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v)
}

/** gzip bytes of each source in one chunk. */
function sourcesOf(file: string) {
  const code = fs.readFileSync(path.join(assets, file), 'utf8')
  // An empty chunk (a module with nothing left for the browser) has no map.
  if (!fs.existsSync(path.join(assets, `${file}.map`))) return new Map([[file, gzipSync(code).length]])
  const map = JSON.parse(fs.readFileSync(path.join(assets, `${file}.map`), 'utf8')) as {
    sources: string[]
    mappings: string
  }
  const lines = code.split('\n')
  const raw = new Map<string, number>()
  decode(map.mappings).forEach((segments, line) => {
    const text = lines[line] ?? ''
    segments.forEach((segment, i) => {
      const end = segments[i + 1]?.[0] ?? text.length
      const source = segment.length > 1 ? map.sources[segment[1]!]! : '(generated)'
      raw.set(source, (raw.get(source) ?? 0) + end - segment[0])
    })
  })
  const gzip = gzipSync(code).length
  const total = [...raw.values()].reduce((a, b) => a + b, 0) || 1
  const shares = new Map<string, number>()
  for (const [source, bytes] of raw) add(shares, new Map([[nameOf(source), (gzip * bytes) / total]]))
  return shares
}

/** A package's name, or the app's own path. */
function nameOf(source: string) {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)
  return inPackage ? inPackage[1]! : source.replace(/^(\.\.\/)+/, '')
}

const table = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, bytes]) => ({ source: name, 'KB gzip': +(bytes / 1024).toFixed(1) }))

const chunks = fs.readdirSync(assets).filter((f) => f.endsWith('.js'))
const all = new Map<string, number>()
for (const chunk of chunks) add(all, sourcesOf(chunk))
console.log(`${chunks.length} chunks; the heaviest sources and packages over all of them:`)
console.table(table(all, 25))

// A signed-in page (a visitor's loads no bundle, decision 314): the entry, the root, the layout and
// the page's route with everything they import, as the page's module preloads name them. The
// dashboard unless route ids are given: `npm run bundle-report -- routes/profile/index`.
const manifestFile = chunks.find((f) => f.startsWith('manifest-'))!
const manifestText = fs.readFileSync(path.join(assets, manifestFile), 'utf8')
const manifest = JSON.parse(
  manifestText.slice(manifestText.indexOf('{'), manifestText.lastIndexOf('}') + 1),
) as {
  entry: { module: string; imports: string[] }
  routes: Record<string, { module: string; imports?: string[] }>
}
const asked = process.argv.slice(2)
for (const route of asked.length ? asked : ['routes/dashboard']) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports])
  for (const id of ['root', 'routes/layout', route])
    for (const f of [manifest.routes[id]!.module, ...(manifest.routes[id]!.imports ?? [])]) files.add(f)
  const sources = new Map<string, number>()
  let total = 0
  for (const f of files) {
    const file = path.basename(f)
    add(sources, sourcesOf(file))
    total += gzipSync(fs.readFileSync(path.join(assets, file))).length
  }
  console.log(`\n${route}: ${files.size} files, ${(total / 1024).toFixed(1)} KB gzip (the manifest aside)`)
  console.table(table(sources, 20))
}
