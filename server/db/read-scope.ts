import { AsyncLocalStorage } from 'node:async_hooks'

// One web page's reads (decision 281). A page asks the API several questions about the same project
// (its details, its activity, its refunds); each call read the project, its contract and the people
// in them again. Inside a read scope those rows are read once for the page: the in-process web UI
// opens one per page request for its GET calls, and empties it around every write it makes. Nothing
// outlives the page, and HTTP callers of the API never have a scope: every call reads afresh.
const scope = new AsyncLocalStorage<ReadScope>()

/** What a page has read so far: a promise per row, by kind and id. */
export type ReadScope = Map<string, Promise<unknown>>

/** Runs `work` inside `reads` (the web UI's page), or as it is without one. */
export const withReadScope = <T>(reads: ReadScope | undefined, work: () => T): T =>
  reads ? scope.run(reads, work) : work()

/** One row by its key, read once per scope; without a scope, read. */
export function readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
  const reads = scope.getStore()
  if (!reads) return read()
  let row = reads.get(key) as Promise<T> | undefined
  if (!row) reads.set(key, (row = read()))
  return row
}

/** Rows of one kind by id, each read once per scope: the ids not read yet are read together in one query. */
export async function readOnceById<R extends { id: number }>(
  kind: string,
  ids: readonly number[],
  read: (ids: number[]) => Promise<R[]>,
): Promise<R[]> {
  const reads = scope.getStore()
  if (!reads) return read([...ids])
  const missing = ids.filter((id) => !reads.has(`${kind}:${id}`))
  if (missing.length) {
    const batch = read(missing).then((rows) => new Map(rows.map((r) => [r.id, r])))
    for (const id of missing)
      reads.set(
        `${kind}:${id}`,
        batch.then((rows) => rows.get(id)),
      )
  }
  const rows = (await Promise.all(ids.map((id) => reads.get(`${kind}:${id}`)))) as Array<R | undefined>
  return rows.filter((r) => r !== undefined)
}
