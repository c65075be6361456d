import { createQueryId, type Compilable, type CompiledQuery } from 'kysely'
import type { DB } from './database.ts'

// Kysely builds and compiles a query anew on every call: it parses each selected column, freezes each
// node and writes the SQL, which for the statements every page makes (a project by id, the people on
// it) cost more than SQLite's own work (decision 286). A prepared query is built and compiled once
// per shape: its builder is called with placeholders for its arguments, and each call puts its values
// where the placeholders went. An array argument is a list (`in`), one shape per length. So a
// builder must only pass its arguments into the query: it may not branch on them or change them.
// Shapes are kept per database (the SQL is its dialect's).

const PLACE = Symbol('prepared query argument')
interface Placeholder {
  [PLACE]: readonly [argument: number, element: number]
}
const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === 'object' && value !== null && PLACE in value
const MAX_SHAPES = 64

type Shape<O> = { compiled: CompiledQuery<O>; slots: Array<Placeholder[typeof PLACE] | null> }

export function prepared<A extends unknown[], O>(build: (db: DB, ...args: A) => Compilable<O>) {
  const byDatabase = new WeakMap<DB, Map<string, Shape<O>>>()
  function shapeOf(db: DB, args: A) {
    let shapes = byDatabase.get(db)
    if (!shapes) byDatabase.set(db, (shapes = new Map()))
    const key = args.map((a) => (Array.isArray(a) ? a.length : '-')).join()
    let shape = shapes.get(key)
    if (!shape) {
      const holders = args.map((a, i) =>
        Array.isArray(a) ? a.map((_, j) => ({ [PLACE]: [i, j] as const })) : { [PLACE]: [i, -1] as const },
      )
      const compiled = build(db, ...(holders as A)).compile()
      const slots = compiled.parameters.map((p) => (isPlaceholder(p) ? p[PLACE] : null))
      const placed = new Set(compiled.parameters.filter(isPlaceholder))
      if (holders.flat().some((h) => !placed.has(h)))
        throw new Error(`a prepared query must put each of its arguments into the query: ${compiled.sql}`)
      if (shapes.size >= MAX_SHAPES) shapes.clear()
      shapes.set(key, (shape = { compiled, slots }))
    }
    return shape
  }
  /** The rows, as the built query's `execute()` would give them. */
  return async (db: DB, ...args: A): Promise<O[]> => {
    const { compiled, slots } = shapeOf(db, args)
    const parameters = slots.map((slot, n) =>
      slot === null
        ? compiled.parameters[n]
        : slot[1] < 0
          ? args[slot[0]]
          : (args[slot[0]] as unknown[])[slot[1]],
    )
    return (
      await db.executeQuery<O>({
        query: compiled.query,
        sql: compiled.sql,
        parameters,
        queryId: createQueryId(),
      })
    ).rows
  }
}
