import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { Endpoint } from '#server/api/contract.ts'
import { dialects } from '../integration/databases.ts'
import { answerOf } from '../integration/api-client.ts'
import { hostile, jsonSchemaOf, nastyString } from './arbitraries.ts'
import { defaultParams, keyOf } from './calls.ts'
import { callerOf, columns, rowFor } from './expectations.ts'
import { useWorld, type World } from './world.ts'

// Issue 19 item 2 (decision 257): every endpoint gets inputs generated from its zod schemas and
// bent (wrong types, huge and unicode-edge strings, bad numbers, missing and extra fields, bad
// path parameters, malformed JSON and multipart), sent by a caller it lets in. Per input: no 5xx;
// a 4xx changes no row of any table; a 400 is in the error catalogue's shape and names a field.
// `npm test` tries a few per endpoint; `npm run proof` (FUZZ_RUNS) thousands. A failure prints the
// seed and the input: FUZZ_SEED=<seed> replays it (FUZZ_ONLY=<pattern> narrows to that endpoint).
const RUNS = Number(process.env.FUZZ_RUNS ?? 6)
const SEED = Number(process.env.FUZZ_SEED ?? 257)
const PROOF = process.env.FUZZ_RUNS !== undefined
/** FUZZ_ONLY=<regular expression>: only the endpoints whose "METHOD path" matches (replaying one). */
const ONLY = new RegExp(process.env.FUZZ_ONLY ?? '')

type Sent = { headers: Record<string, string>; body?: string }
type Wire = Sent & { method: string; path: string }

/** Path parameters: mostly the world's own objects (so the input reaches the endpoint), or bent. */
function paramArbitrary(world: World, e: Endpoint) {
  const names = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
  const defaults = { ...defaultParams(world), ...rowFor(e)?.call?.(world).params }
  const bent = fc.oneof(
    nastyString,
    fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '2147483648',
      '99999999999999999999',
      'NaN',
      '1e3',
      '0x10',
      ' 1',
      '%',
      '..',
      '.',
    ),
  )
  return fc.record(
    Object.fromEntries(
      names.map((n) => [
        n,
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(String(defaults[n] ?? 1)) },
          { weight: 2, arbitrary: bent },
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>
}

/** Bytes of a string as UTF-8, each escaped: lone surrogates and NUL reach the server as a client could send them. */
const segment = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')

function query(value: unknown) {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return `?q=${segment(JSON.stringify(value) ?? '')}`
  const parts = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v]).map(
      (x) => `${segment(k)}=${segment(typeof x === 'string' ? x : (JSON.stringify(x) ?? ''))}`,
    ),
  )
  return parts.length ? `?${parts.join('&')}` : ''
}

const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '[',
  'nul',
  '"unterminated',
  '{"a":1,}',
  '\u0000',
  '{"__proto__":{"isAdmin":true}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\ufeff{}',
  '{"a":1}{"b":2}',
  'NaN',
  '1e999999',
)
const boundary = '----secmatrix'
const malformedMultipart = fc.constantFrom(
  `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nhello`,
  `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="../../etc/passwd"\r\nContent-Type: text/plain\r\n\r\nroot:x\r\n--${boundary}--\r\n`,
  `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="\u0000.exe"\r\n\r\nMZ\r\n--${boundary}--\r\n`,
  `--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--other--\r\n`,
  `--${boundary}--\r\n`,
  '',
)

function wireArbitrary(world: World, e: Endpoint): fc.Arbitrary<Wire> {
  const body = e.body ? hostile(jsonSchemaOf(e.body)) : fc.option(fc.anything(), { nil: undefined })
  const q = e.query ? hostile(jsonSchemaOf(e.query)) : fc.constant(undefined)
  const kinds: Array<fc.Arbitrary<Sent>> = [
    body.map((b): Sent =>
      b === undefined
        ? { headers: {} }
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) },
    ),
    malformedJson.map((b) => ({ headers: { 'content-type': 'application/json' }, body: b })),
    body.map((b) => ({ headers: { 'content-type': 'text/plain' }, body: JSON.stringify(b ?? null) })),
  ]
  if (e.multipart || /image|file|upload|rate-sheet/i.test(e.path))
    kinds.push(
      malformedMultipart.map((b) => ({
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: b,
      })),
    )
  return fc
    .record({
      params: paramArbitrary(world, e),
      q,
      sent: fc.oneof({ weight: 4, arbitrary: kinds[0] }, ...kinds.slice(1)),
    })
    .map(({ params, q, sent }) => ({
      method: e.method,
      path:
        e.path.replace(/\{(\w+)\}/g, (_, n: string) => segment(params[n])) +
        (q === undefined ? '' : query(q)),
      headers: sent.headers,
      body: e.method === 'GET' ? undefined : sent.body,
    }))
}

/** The error catalogue's shape (server/api/errors.ts); a 400 names at least one field. */
function catalogueProblem(status: number, json: any) {
  if (!json || typeof json !== 'object') return 'not JSON'
  for (const key of ['status', 'code', 'title', 'detail', 'errors', 'requestId'])
    if (!(key in json)) return `no ${key}`
  if (json.status !== status) return `status ${json.status} in a ${status} answer`
  if (status === 400) {
    const fields = Object.entries(json.errors ?? {})
    if (!fields.length) return 'a 400 that names no field'
    if (
      fields.some(
        ([, messages]) =>
          !Array.isArray(messages) || !messages.length || messages.some((m) => typeof m !== 'string' || !m),
      )
    )
      return 'a field without messages'
  }
  return null
}

// Both databases: PostgreSQL refuses what SQLite takes (NUL in text, integers past 32 bits), and
// those were the defects found. FUZZ_DATABASES=postgres (or sqlite) picks one.
const fuzzed = process.env.FUZZ_DATABASES
  ? dialects.filter((d) => process.env.FUZZ_DATABASES!.split(',').includes(d))
  : dialects
for (const dialect of fuzzed) {
  describe(`fuzzing every endpoint on ${dialect}`, () => {
    const s = useWorld(dialect, `fuzz${dialect}`, dialect === 'sqlite' ? 62 : 63)

    test(
      "no 5xx, no change on a 4xx, every 400 in the catalogue's shape",
      async () => {
        const { world, changes } = s
        // Endpoints that end sessions go last: the callers' sessions are needed until then.
        const endpoints = [...world.t.api.endpoints].sort(
          (a, b) => (rowFor(a)?.endsSession ?? 0) - (rowFor(b)?.endsSession ?? 0),
        )
        let tried = 0
        const started = performance.now()
        for (const e of endpoints) {
          const row = rowFor(e)
          if (!row || !ONLY.test(keyOf(e))) continue // without a row the matrix names it; fuzzing needs a caller it lets in
          const column =
            columns.find((c) => c !== 'visitor' && (row.cells[c] === 'ok' || row.cells[c] === 'any')) ??
            'visitor'
          const who = callerOf(world, column, row.owner)
          const token = who === 'visitor' ? undefined : world.users[who].token
          await fc.assert(
            fc.asyncProperty(wireArbitrary(world, e), async (wire) => {
              tried += 1
              const write = e.method !== 'GET'
              if (write) await changes.clear()
              const response = await answerOf(
                await world.t.raw(wire.method, wire.path, { token, headers: wire.headers, body: wire.body }),
              )
              const { text, json } = response
              const where = `${keyOf(e)} as ${who}: ${wire.method} ${wire.path.slice(0, 300)} ${JSON.stringify(wire.headers)} ${String(wire.body ?? '').slice(0, 300)}`
              expect(response.status, `${where} → ${text.slice(0, 300)}`).toBeLessThan(500)
              if (response.status >= 400) {
                if (e.responseType !== 'text' || response.headers.get('content-type')?.includes('json'))
                  expect(
                    catalogueProblem(response.status, json),
                    `${where} → ${text.slice(0, 300)}`,
                  ).toBeNull()
                if (write)
                  expect(await changes.tables(), `${where} → ${response.status} changed tables`).toEqual([])
              }
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: true, verbose: 0 },
          )
        }
        console.log(
          `fuzzing on ${dialect}: ${tried} inputs tried over ${endpoints.length} endpoints (${RUNS} each) in ${Math.round((performance.now() - started) / 1000)} s`,
        )
      },
      PROOF ? 3_600_000 : 240_000,
    )
  })
}
