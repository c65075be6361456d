import { describe, expect, it } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, tinyPng, tinyXlsx, useProfiles } from '../../../tests/support/modules/profiles.ts'
import { fileHelpers } from '../../../tests/support/modules/files.ts'
import { FILE_BYTES_TOPIC } from './lifecycle.ts'

// File bytes follow their rows, on both databases, through the real API and folder storage:
// replaced or removed files (profile images, portfolio pictures and documents, a schedule of rates)
// lose their bytes after the commit, live files keep theirs, and a rolled-back release changes
// nothing. The sweeps are in file-sweeps.test.ts.
describe.each(portableDialects)('file bytes follow their rows on %s', (dialect) => {
  const s = useProfiles(dialect)
  const { files, stored, keyOf, idOf, drain, twoHoursAgo } = fileHelpers(s)

  it('removes the old bytes when a profile image of any kind is replaced or removed, and keeps the new ones', async () => {
    const kinds = [
      ['freelancer', 'freelancers/profile/image'],
      ['client', 'clients/profile/image'],
      ['company', 'companies/profile/image'],
    ] as const
    let last = { token: '', id: 0, key: '' }
    let freelancer = last
    for (const [kind, path] of kinds) {
      const user = await s.t.user(kind)
      const first = await s.t.upload(path, user.token, 'first.png', tinyPng())
      expect(first.status).toBe(200)
      const firstKey = (await keyOf(idOf(first.json.imageUrl)))!
      const second = await s.t.upload(path, user.token, 'second.png', tinyPng())
      const secondId = idOf(second.json.imageUrl)
      const secondKey = (await keyOf(secondId))!
      expect(await keyOf(idOf(first.json.imageUrl))).toBeUndefined() // the row went with the swap
      await drain()
      const keys = await stored()
      expect(keys.has(firstKey)).toBe(false)
      expect(keys.has(secondKey)).toBe(true)
      expect((await s.t.raw('GET', `files/${secondId}/download`)).status).toBe(200)
      last = { token: user.token, id: secondId, key: secondKey }
      if (kind === 'freelancer') freelancer = last
    }
    // Removing the image (freelancers have the endpoint) removes its bytes too.
    expect((await s.t.call('DELETE', 'freelancers/profile/image', { token: freelancer.token })).json).toEqual(
      { imageUrl: null },
    )
    await drain()
    expect((await stored()).has(freelancer.key)).toBe(false)
    expect(await keyOf(freelancer.id)).toBeUndefined()
    expect((await stored()).has(last.key)).toBe(true) // the company's image stays
  })

  it("replaces portfolio pictures and documents, and removes both with their item, never another freelancer's", async () => {
    const ana = await s.t.user('freelancer', 'Ana')
    const bob = await s.t.user('freelancer', 'Bob')
    const addItem = async (token: string) => {
      const r = await s.t.call('POST', 'freelancers/profile/portfolios', {
        token,
        body: { title: 'Footbridge' },
      })
      expect(r.status).toBe(200)
      return r.json.portfolios[0].id as number
    }
    const anaItem = await addItem(ana.token)
    const bobItem = await addItem(bob.token)
    const fileIds = async (item: number) =>
      await s.database.db
        .selectFrom('freelancer_portfolio')
        .select(['image_file_id', 'document_file_id'])
        .where('id', '=', item)
        .executeTakeFirstOrThrow()
    expect(
      (await s.t.upload(`freelancers/profile/portfolios/${anaItem}/image`, ana.token, 'a.png', tinyPng()))
        .status,
    ).toBe(200)
    expect(
      (await s.t.upload(`freelancers/profile/portfolios/${anaItem}/file`, ana.token, 'calc.pdf', tinyPdf()))
        .status,
    ).toBe(200)
    expect(
      (await s.t.upload(`freelancers/profile/portfolios/${bobItem}/image`, bob.token, 'b.png', tinyPng()))
        .status,
    ).toBe(200)
    const before = await fileIds(anaItem)
    const [oldImage, documentKey, bobKey] = [
      await keyOf(before.image_file_id!),
      await keyOf(before.document_file_id!),
      await keyOf((await fileIds(bobItem)).image_file_id!),
    ]

    expect(
      (await s.t.upload(`freelancers/profile/portfolios/${anaItem}/image`, ana.token, 'a2.png', tinyPng()))
        .status,
    ).toBe(200)
    const newImage = await keyOf((await fileIds(anaItem)).image_file_id!)
    await drain()
    let keys = await stored()
    expect([keys.has(oldImage!), keys.has(newImage!), keys.has(documentKey!), keys.has(bobKey!)]).toEqual([
      false,
      true,
      true,
      true,
    ])

    // Bob cannot delete Ana's item (nothing changes), then Ana deletes it.
    expect(
      (await s.t.call('DELETE', `freelancers/profile/portfolios/${anaItem}`, { token: bob.token })).status,
    ).toBe(404)
    await drain()
    expect((await stored()).has(newImage!)).toBe(true)
    expect(
      (await s.t.call('DELETE', `freelancers/profile/portfolios/${anaItem}`, { token: ana.token })).status,
    ).toBe(200)
    await drain()
    keys = await stored()
    expect([keys.has(newImage!), keys.has(documentKey!), keys.has(bobKey!)]).toEqual([false, false, true])
  })

  it('keeps rows and bytes when the releasing transaction rolls back, and keeps the removal queued until it is delivered', async () => {
    const user = await s.t.user('freelancer')
    const up = await s.t.upload('freelancers/profile/image', user.token, 'me.png', tinyPng())
    const id = idOf(up.json.imageUrl)
    const key = (await keyOf(id))!
    const queued = () =>
      s.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', FILE_BYTES_TOPIC)
        .where('status', '=', 'pending')
        .execute()
    await drain()
    await expect(
      s.database.db.transaction().execute(async (trx) => {
        await files().release(trx, [id])
        throw new Error('the change that released it failed')
      }),
    ).rejects.toThrow('failed')
    expect(await keyOf(id)).toBe(key)
    expect(await queued()).toEqual([])
    await drain()
    expect((await stored()).has(key)).toBe(true)

    // Committed but not yet delivered (as after a crash): the row is gone, the bytes wait for the outbox.
    await s.database.db.transaction().execute((trx) => files().release(trx, [id]))
    expect(await keyOf(id)).toBeUndefined()
    expect((await queued()).map((r) => JSON.parse(r.payload).keys)).toEqual([[key]])
    expect((await stored()).has(key)).toBe(true)
    await drain()
    expect((await stored()).has(key)).toBe(false)
  })

  it('removes a replaced or removed schedule of rates with its bytes, and sweeps one that no profile points at', async () => {
    const user = await s.t.user('freelancer')
    const sheet = async (name: string, bytes: Buffer) => {
      const up = await s.t.upload('freelancers/profile/rate-sheet', user.token, name, bytes)
      expect(up.status).toBe(200)
      return { id: up.json.rateSheet.id as number, key: (await keyOf(up.json.rateSheet.id))! }
    }
    const first = await sheet('rates.xlsx', tinyXlsx())
    const second = await sheet('rates.csv', Buffer.from('item;unit;rate\nslab design;m²;4.50\n'))
    await drain()
    let keys = await stored()
    expect([await keyOf(first.id), keys.has(first.key), keys.has(second.key)]).toEqual([
      undefined,
      false,
      true,
    ])

    // A pointer cleared without releasing the file: the row stays until it is an hour old, then goes with its bytes.
    await s.database.db
      .updateTable('freelancer_profile')
      .set({ rate_sheet_file_id: null })
      .where('user_id', '=', user.id)
      .execute()
    expect(await files().releaseUnreferenced()).toBe(0)
    const third = await sheet('rates-2027.csv', Buffer.from('item;unit;rate\nsite visit;day;480\n'))
    await s.database.db
      .updateTable('stored_file')
      .set({ created_at: twoHoursAgo() })
      .where('id', 'in', [second.id, third.id])
      .execute()
    expect(await files().releaseUnreferenced()).toBe(1)
    await drain()
    keys = await stored()
    expect([
      await keyOf(second.id),
      keys.has(second.key),
      await keyOf(third.id),
      keys.has(third.key),
    ]).toEqual([undefined, false, third.key, true])

    // Removing it releases it at once.
    expect(
      (await s.t.call('DELETE', 'freelancers/profile/rate-sheet', { token: user.token })).json.rateSheet,
    ).toBeNull()
    await drain()
    expect([await keyOf(third.id), (await stored()).has(third.key)]).toEqual([undefined, false])
  })
})
