import fc from 'fast-check'
import { z } from 'zod'

// Inputs for an endpoint generated from its zod schemas. The schema is read through zod's own
// JSON Schema export (the OpenAPI document's source, a public API), not zod's internals, so a new
// kind of field needs no change here. `valid` aims at what the schema takes (formats, patterns,
// bounds); `hostile` mixes it with what a client must never be trusted to send.
type Json = Record<string, any>

export function jsonSchemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json
}

const formats: Record<string, () => fc.Arbitrary<string>> = {
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  uuid: () => fc.uuid(),
  'date-time': () =>
    fc
      .date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
  date: () =>
    fc
      .date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
}

/** Values the schema should accept (refinements the JSON Schema cannot say may still refuse some). */
export function valid(node: Json, root: Json = node, depth = 0): fc.Arbitrary<unknown> {
  if (node.$ref) return valid(resolve(root, node.$ref), root, depth + 1)
  if ('const' in node) return fc.constant(node.const)
  if (node.enum) return fc.constantFrom(...node.enum)
  const union = node.anyOf ?? node.oneOf
  if (union) return fc.oneof(...union.map((n: Json) => valid(n, root, depth + 1)))
  if (node.allOf) return valid(Object.assign({}, ...node.allOf), root, depth + 1)
  switch (Array.isArray(node.type) ? node.type[0] : node.type) {
    case 'string': {
      if (node.format && formats[node.format]) return formats[node.format]()
      const minLength = node.minLength ?? 0
      const maxLength = Math.min(node.maxLength ?? minLength + 40, minLength + 200)
      if (node.pattern)
        return fc
          .stringMatching(new RegExp(node.pattern))
          .filter((s) => s.length >= minLength && s.length <= (node.maxLength ?? Infinity))
      const text = fc
        .string({ minLength, maxLength, unit: 'grapheme-ascii' })
        .map((s) => (s.trim().length >= minLength ? s : s.replace(/\s/g, 'x')))
      // The longest a field takes, in letters and in non-ASCII text: where a careless service breaks.
      if (node.maxLength === undefined || node.maxLength > 100_000) return text
      const longest = fc
        .constantFrom('x', 'é', 'א', 'a b')
        .map((unit) => unit.repeat(Math.ceil(node.maxLength / unit.length)).slice(0, node.maxLength))
      return fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: longest })
    }
    case 'integer':
    case 'number': {
      const min = node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : -1000)
      const max =
        node.maximum ??
        (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : Math.max(min + 1000, 1000))
      const [lo, hi] = [Math.ceil(Math.max(min, -(2 ** 40))), Math.floor(Math.min(max, 2 ** 40))]
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: lo, max: hi }) },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
      )
    }
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const minLength = node.minItems ?? 0
      const item = node.items ? valid(node.items, root, depth + 1) : fc.anything()
      return fc.array(item, { minLength, maxLength: Math.min(node.maxItems ?? minLength + 3, minLength + 3) })
    }
    case 'object': {
      const props: Record<string, Json> = node.properties ?? {}
      const required = new Set<string>(node.required ?? [])
      const record = Object.fromEntries(
        Object.entries(props).map(([k, v]) => [
          k,
          depth > 6 ? fc.constant(undefined) : valid(v, root, depth + 1),
        ]),
      )
      const requiredKeys = Object.keys(props).filter((k) => required.has(k))
      return fc.record(record, { requiredKeys }) as fc.Arbitrary<unknown>
    }
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.boolean())
  }
}

function resolve(root: Json, ref: string): Json {
  return (
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node, key) => node?.[key], root as any) ?? {}
  )
}

/** Strings a careless server chokes on: huge, lone surrogates, NUL, RTL and zero-width marks, injections. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202egnp.exe',
    '\u200b\u200c\u200d\ufeff',
    'مرحبا بالعالم',
    '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
    "' OR 1=1 --",
    "'); DROP TABLE app_user; --",
    '<script>window.__pwned=1</script>',
    '"><img src=x onerror=alert(1)>',
    '${7*7}{{7*7}}',
    '../../../../etc/passwd',
    '%00%2e%2e%2f',
    'NaN',
    '-1',
    '1e309',
    '9'.repeat(400),
    'null',
    '[]',
    '{}',
    'x'.repeat(70_000),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', minLength: 1000, maxLength: 5000 }),
)

const nastyNumber = fc.constantFrom(
  -1,
  0,
  -0,
  1.5,
  -(2 ** 31),
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1e308,
  5e-324,
)
const wrongType = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
)

/** A value of the schema's shape, then bent: a field of the wrong type, a missing one, an extra one, a nasty string or number. */
export function hostile(node: Json, root: Json = node, depth = 0): fc.Arbitrary<unknown> {
  if (node.$ref) return hostile(resolve(root, node.$ref), root, depth + 1)
  const type = Array.isArray(node.type) ? node.type[0] : node.type
  const bent: fc.Arbitrary<unknown> =
    type === 'object' && node.properties && depth < 6
      ? fc
          .tuple(
            fc.record(
              Object.fromEntries(
                Object.entries(node.properties as Record<string, Json>).map(([k, v]) => [
                  k,
                  fc.oneof(
                    { weight: 3, arbitrary: valid(v, root, depth + 1) },
                    { weight: 2, arbitrary: hostile(v, root, depth + 1) },
                  ),
                ]),
              ),
              { requiredKeys: [] },
            ),
            fc.option(
              fc.tuple(
                fc.constantFrom(
                  '__proto__',
                  'constructor',
                  'isAdmin',
                  'userId',
                  'role',
                  'status',
                  'id',
                  'x'.repeat(300),
                ),
                wrongType,
              ),
              { nil: undefined },
            ),
          )
          .map(([record, extra]) => (extra ? { ...(record as object), [extra[0]]: extra[1] } : record))
      : type === 'array' && node.items && depth < 6
        ? fc.oneof(
            fc.array(hostile(node.items, root, depth + 1), { maxLength: 4 }),
            fc.array(fc.integer(), { minLength: 500, maxLength: 2000 }),
          )
        : type === 'string'
          ? nastyString
          : type === 'integer' || type === 'number'
            ? nastyNumber
            : wrongType
  return fc.oneof(
    { weight: 1, arbitrary: valid(node, root, depth) },
    { weight: 4, arbitrary: bent },
    { weight: 1, arbitrary: wrongType },
  )
}
