import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { dialects, useTestDatabase } from '../integration/databases.ts'
import { watchChanges, type ChangeWatch } from './changes.ts'

// The watch behind "a refused call changes nothing" (matrix and fuzzing): it must see each kind of
// change, and only real ones, or those tests could never fail.
for (const dialect of dialects) {
  describe(`the change watch on ${dialect}`, () => {
    const s = useTestDatabase(dialect, undefined, { open: { migrate: false, seed: false } })
    let changes: ChangeWatch
    const run = (query: string) => sql.raw(query).execute(s.database.db)
    beforeAll(async () => {
      await run(
        `create table probe (id integer primary key, note text, data ${dialect === 'postgres' ? 'json' : 'text'})`,
      )
      await run('create table user_session (id integer primary key, last_used text)')
      if (dialect === 'sqlite') await run('create virtual table probe_search using fts5(words)')
      changes = await watchChanges(s.database)
    })

    test('sees rows inserted, updated to other values and deleted, and nothing else', async () => {
      await changes.clear()
      expect(await changes.tables()).toEqual([])
      await run(`insert into probe (id, note, data) values (1, 'a', '{"x":1}')`)
      expect(await changes.tables()).toEqual(['probe'])

      await changes.clear()
      await run(`update probe set note = 'a' where id = 1`)
      await run(`update probe set note = 'b' where id = 2`)
      expect(await changes.tables(), 'an update that changes no value, or no row').toEqual([])
      await run(`update probe set data = '{"x":2}' where id = 1`)
      expect(await changes.tables()).toEqual(['probe'])

      await changes.clear()
      await run('delete from probe where id = 1')
      expect(await changes.tables()).toEqual(['probe'])
    })

    test('leaves sessions out, and a rolled-back change is no change', async () => {
      await changes.clear()
      await run(`insert into user_session (id, last_used) values (1, 'now')`)
      await s.database.db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into probe (id, note) values (7, 'x')`.execute(trx)
          throw new Error('roll back')
        })
        .catch(() => undefined)
      expect(await changes.tables()).toEqual([])
    })

    if (dialect === 'sqlite')
      test('sees a change to a full-text index, which takes no trigger', async () => {
        await changes.clear()
        await run(`insert into probe_search (rowid, words) values (1, 'beam')`)
        expect(await changes.tables()).toEqual(['probe_search'])
      })
  })
}
