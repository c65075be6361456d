import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from './databases.ts'
import { tinyPng, useModuleApi } from './module-api.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { loadDemo } from '#server/db/demo.ts'
import type { Db } from '#server/db/database.ts'
import { backup, restore, tablesOf } from '#server/db/backup.ts'

// db:backup and db:restore round trip on both databases (decision 263): the demo marketplace
// (accounts, profiles, projects, search indexes) plus an uploaded file and a second-factor row;
// backup; change and destroy rows and files; restore; every table and every file is as it was,
// and the ids the database hands out next do not collide with restored ones.

/** Every row of every table, in a stable order, as JSON text per table. */
async function everything(database: Db) {
  const out: Record<string, string[]> = {}
  for (const table of await tablesOf(database.db, database.dialect)) {
    const rows = table.virtual
      ? (
          await sql<
            Record<string, unknown>
          >`select rowid as "rowid", * from ${sql.table(table.name)}`.execute(database.db)
        ).rows
      : (await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(database.db)).rows
    out[table.name] = rows.map((r) => JSON.stringify(r)).sort()
  }
  return out
}

function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out[path.relative(dir, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

for (const dialect of dialects) {
  describe(`backup and restore on ${dialect}`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `workneer-backup-data-${dialect}-`))
    const backupDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `workneer-backup-${dialect}-`)), 'b1')
    afterAll(() => {
      fs.rmSync(dataDir, { recursive: true, force: true })
      fs.rmSync(path.dirname(backupDir), { recursive: true, force: true })
    })
    const s = useModuleApi(dialect, { name: `backup-${dialect}`, addressBlock: 62, dataDir })

    beforeAll(async () => {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir })
      await loadDemo({
        database: s.database,
        config,
        log: createLogger('silent'),
        services: s.t.api.services,
        onlyIntoEmpty: false,
      })
    }, 120_000)

    it('brings back every row and every file after they were changed and destroyed', async () => {
      const me = await s.t.user('freelancer')
      const uploaded = await s.t.upload('freelancers/profile/image', me.token, 'me.png', tinyPng())
      expect(uploaded.status).toBe(200)
      await s.t.admin()
      const before = await everything(s.database)
      const filesBefore = filesOf(path.join(dataDir, 'files'))
      expect(Object.keys(filesBefore).length).toBeGreaterThan(0)
      expect(before.project.length).toBeGreaterThan(0)
      expect(before.user_second_factor.length).toBe(1)

      const manifest = await backup(s.database, dataDir, backupDir)
      expect(manifest.tables.app_user).toBe(before.app_user.length)
      expect(manifest.files).toBe(Object.keys(filesBefore).length)

      // Change, add and destroy: rows, a whole table's worth, and the stored files.
      await s.database.db.updateTable('app_user').set({ first_name: 'Changed' }).execute()
      await s.database.db.deleteFrom('user_session').execute()
      await s.t.user('client')
      fs.rmSync(path.join(dataDir, 'files'), { recursive: true, force: true })
      fs.mkdirSync(path.join(dataDir, 'files', 'stray'), { recursive: true })
      fs.writeFileSync(path.join(dataDir, 'files', 'stray', 'x'), 'not in the backup')
      expect(await everything(s.database)).not.toEqual(before)

      const restored = await restore(s.database, dataDir, backupDir)
      expect(restored.files).toBe(Object.keys(filesBefore).length)
      const after = await everything(s.database)
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table])
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort())
      expect(filesOf(path.join(dataDir, 'files'))).toEqual(filesBefore)

      // The restored accounts sign in, and a new one gets an id past theirs.
      const again = await s.t.user('company')
      expect(again.id).toBeGreaterThan(Math.max(...before.app_user.map((r) => JSON.parse(r).id)))
      expect((await s.t.call('GET', 'identity/profile', { token: again.token })).status).toBe(200)
    }, 120_000)

    it('refuses a folder that is not a backup, and writes only into an empty folder', async () => {
      await expect(backup(s.database, dataDir, backupDir)).rejects.toThrow(/not empty/)
      const bogus = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-bogus-'))
      fs.writeFileSync(path.join(bogus, 'manifest.json'), JSON.stringify({ format: 'something else' }))
      await expect(restore(s.database, dataDir, bogus)).rejects.toThrow(/not a Workneer backup/)
      fs.rmSync(bogus, { recursive: true, force: true })
    })
  })
}
