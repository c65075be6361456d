import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { adminActionNames, adminObjectTypes, recordAdminAction } from './audit.ts'

// The audit list (/admin/audit) shows every admin action and object kind by name, in five
// languages: each listed name has its label in each language, and a name not listed is refused.
const languages = ['en', 'es', 'de', 'it', 'ru']
const labels = (lng: string) =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, `../../../locales/${lng}/adminUsers.json`), 'utf8'),
  ) as { auditActions: Record<string, string>; objects: Record<string, string> }

describe('admin audit names', () => {
  it.each(languages)('every admin action and object kind has a label in %s', (lng) => {
    const { auditActions, objects } = labels(lng)
    expect(adminActionNames.filter((a) => !auditActions[a]?.trim())).toEqual([])
    expect(adminObjectTypes.filter((o) => !objects[o]?.trim())).toEqual([])
  })

  it('refuses to record an action or an object kind it does not list', async () => {
    const executor = {
      insertInto: () => {
        throw new Error('written')
      },
    } as never
    await expect(
      recordAdminAction(executor, { actorId: 1, action: 'invent' as never, objectType: 'user', objectId: 1 }),
    ).rejects.toThrow(/unknown action invent/)
    await expect(
      recordAdminAction(executor, {
        actorId: 1,
        action: 'suspend',
        objectType: 'spaceship' as never,
        objectId: 1,
      }),
    ).rejects.toThrow(/unknown action suspend on spaceship/)
  })
})
