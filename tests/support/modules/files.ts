import type { useProfiles } from './profiles.ts'

// The helpers of the file lifecycle tests (server/modules/files/lifecycle.test.ts and
// file-sweeps.test.ts): the file service, the storage's keys, a file row's key, a file's id in its
// address, delivering the outbox, and a time old enough for the sweeps.
export function fileHelpers(s: ReturnType<typeof useProfiles>) {
  const files = () => s.t.api.services.files
  const stored = async () => {
    const keys = new Set<string>()
    for await (const entry of files().storage.list()) keys.add(entry.key)
    return keys
  }
  const keyOf = async (fileId: number) =>
    (
      await s.database.db
        .selectFrom('stored_file')
        .select('storage_key')
        .where('id', '=', fileId)
        .executeTakeFirst()
    )?.storage_key
  const idOf = (url: string) => Number(/files\/(\d+)\//.exec(url)![1])
  const drain = () => s.t.api.jobs.outbox.drain()
  const twoHoursAgo = () => new Date(Date.now() - 2 * 3600_000).toISOString()
  return { files, stored, keyOf, idOf, drain, twoHoursAgo }
}
