import fs from 'node:fs'

// What the test databases of this test file's process left behind, checked after its last hook
// (tests/integration/no-leftovers.ts): a PostgreSQL database still there, a SQLite folder still
// there or a SQLite file still open, a PostgreSQL database dropped by force while a handle still
// held it. A leak is seen where it happens, not as a disk or a server filling up runs later.
type Made = { kind: 'sqlite'; dir: string } | { kind: 'postgres'; name: string; adminUrl: string }
const made: Made[] = []
const inUse: string[] = []
const drops: Array<Promise<void>> = []

export const madeTestDatabase = (database: Made) => void made.push(database)
export const droppedInUse = (name: string, connections: number) =>
  void inUse.push(
    `PostgreSQL database ${name} dropped by force, ${connections} connection(s) still open: a handle not closed`,
  )

/** A drop still under way: `leftovers` waits for it, and a failed one fails the file there. */
export function droppedLater(drop: Promise<void>) {
  drop.catch(() => {})
  drops.push(drop)
}

/** What this file left behind; each file is checked for its own (a worker runs several files, decision 359). */
export async function leftovers() {
  await Promise.all(drops.splice(0))
  const found = inUse.splice(0)
  const mine = made.splice(0)
  const dirs = mine.flatMap((m) => (m.kind === 'sqlite' ? [m.dir] : []))
  for (const dir of dirs) if (fs.existsSync(dir)) found.push(`SQLite folder ${dir} not removed`)
  // Linux only: a removed file still held open shows among the process's descriptors.
  const fds = dirs.length && fs.existsSync('/proc/self/fd') ? fs.readdirSync('/proc/self/fd') : []
  for (const fd of fds) {
    let file: string
    try {
      file = fs.readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      continue
    }
    if (dirs.some((dir) => file.startsWith(`${dir}/`)))
      found.push(`SQLite file ${file} still open: a handle not closed`)
  }
  const postgres = mine.flatMap((m) => (m.kind === 'postgres' ? [m] : []))
  if (postgres.length) {
    const { default: pg } = await import('pg')
    const admin = new pg.Client({ connectionString: postgres[0].adminUrl })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where datname = any($1)',
        [postgres.map((m) => m.name)],
      )
      for (const row of rows) found.push(`PostgreSQL database ${row.datname} not dropped`)
    } finally {
      await admin.end()
    }
  }
  return found
}
