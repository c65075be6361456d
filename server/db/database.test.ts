import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestDatabase, dialects, type TestDatabase } from '../../tests/integration/databases.ts'
import { migrateToLatest, pendingMigrations } from './database.ts'
import { migrations } from './migrations/index.ts'
import { seedReference } from './seed.ts'
import { areas, skills } from './seed-data/catalogue.ts'

describe.each(dialects)('database on %s', (dialect) => {
  let testDb: TestDatabase
  beforeAll(async () => {
    testDb = await createTestDatabase(dialect)
  })
  afterAll(() => testDb.drop())

  it('applies every migration once and reports none pending', async () => {
    const database = await testDb.open({ migrate: false })
    expect(await pendingMigrations(database)).toEqual(Object.keys(migrations))
    expect(await migrateToLatest(database)).toEqual(Object.keys(migrations))
    expect(await migrateToLatest(database)).toEqual([])
    expect(await pendingMigrations(database)).toEqual([])
    await database.close()
  })

  it('seeds the catalogue idempotently and keeps rows across a restart', async () => {
    let database = await testDb.open({ seed: false })
    await seedReference(database.db)
    await seedReference(database.db)
    const count = async () =>
      Number(
        (
          await database.db
            .selectFrom('category')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count()).toBe(areas.length)
    const skillCount = Number(
      (
        await database.db
          .selectFrom('skill')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
    expect(skillCount).toBe(skills.length)
    await database.close()
    database = await testDb.open({ seed: false })
    expect(await count()).toBe(areas.length)
    await database.close()
  })

  it('rolls a failing migration back whole, leaving no half-made table', async () => {
    const database = await testDb.open()
    const failing = {
      ...migrations,
      '9999-broken': {
        async up(db: any) {
          await db.schema.createTable('half_made').addColumn('id', 'integer').execute()
          await sql`select * from no_such_table`.execute(db)
        },
      },
    }
    await expect(migrateToLatest(database, failing)).rejects.toThrow(/9999-broken/)
    const tables = (await database.db.introspection.getTables()).map((t) => t.name)
    expect(tables).not.toContain('half_made')
    expect(tables).toContain('category')
    await database.close()
  })
})

// A SQLite handle opened and closed without a query must not keep its file open (Kysely starts
// its driver only on a first query, and closes only a started one).
it('closes a SQLite file that no query ever used', async () => {
  const testDb = await createTestDatabase('sqlite')
  const database = await testDb.open({ migrate: false })
  const file = (testDb.target as { file: string }).file
  const holding = () =>
    fs.readdirSync('/proc/self/fd').some((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(file)
      } catch {
        return false
      }
    })
  expect(holding()).toBe(true)
  await database.close()
  expect(holding()).toBe(false)
  await testDb.drop()
})
