import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, tinyPng, tinyXlsx, useProfiles } from '../../../tests/support/modules/profiles.ts'
import { fund } from '../../../tests/support/modules/payments.ts'
import { FILE_BYTES_TOPIC, sweepOrphanBytes } from './lifecycle.ts'

// File bytes follow their rows, on both databases, through the real API and folder storage:
// replaced or removed files lose their bytes after the commit, live files keep theirs, a rolled-back
// release changes nothing, and the sweep removes only old bytes that no row names.
describe.each(dialects)('file bytes follow their rows on %s', (dialect) => {
  const s = useProfiles(dialect)

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

  it('sweeps bytes that no row names once they are an hour old, and never bytes with a row', async () => {
    const user = await s.t.user('company')
    const up = await s.t.upload('companies/profile/image', user.token, 'logo.png', tinyPng())
    const liveKey = (await keyOf(idOf(up.json.imageUrl)))!
    const orphan = async () => {
      // Bytes kept without a row: what a crashed upload or another module's deleted row leaves.
      const temp = files().storage.temporary()
      fs.writeFileSync(temp.path, tinyPdf())
      return files().storage.keep(temp.path)
    }
    const oldOrphan = await orphan()
    const freshOrphan = await orphan()
    const age = (key: string) => {
      const stream = files().storage.read(key) as fs.ReadStream
      stream.destroy()
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
      fs.utimesSync(stream.path, twoHoursAgo, twoHoursAgo)
    }
    age(oldOrphan)
    age(liveKey)

    expect(await sweepOrphanBytes({ db: s.database.db, storage: files().storage })).toBe(1)
    let keys = await stored()
    expect([keys.has(oldOrphan), keys.has(freshOrphan), keys.has(liveKey)]).toEqual([false, true, true])
    // An hour later the fresh orphan goes too; the live file still stays.
    expect(
      await sweepOrphanBytes({ db: s.database.db, storage: files().storage, now: Date.now() + 2 * 3600_000 }),
    ).toBeGreaterThanOrEqual(1)
    keys = await stored()
    expect([keys.has(freshOrphan), keys.has(liveKey)]).toEqual([false, true])
    expect((await s.t.raw('GET', `files/${idOf(up.json.imageUrl)}/download`)).status).toBe(200)
  })

  it('releases file rows that nothing points at once they are an hour old, and never a referenced, young or unclaimed one', async () => {
    const user = await s.t.user('freelancer')
    // An image row whose reference was cleared without releasing it (what the sweep is for), then the live one.
    const dropped = idOf(
      (await s.t.upload('freelancers/profile/image', user.token, 'old.png', tinyPng())).json.imageUrl,
    )
    await s.database.db
      .updateTable('app_user')
      .set({ image_file_id: null })
      .where('id', '=', user.id)
      .execute()
    const live = idOf(
      (await s.t.upload('freelancers/profile/image', user.token, 'me.png', tinyPng())).json.imageUrl,
    )
    // Unreferenced rows that must stay: one too young (an upload whose owner row is still being
    // written), one of a purpose no module claims.
    const copy = async (purpose: string, storageKey: string) => {
      const row = await s.database.db
        .selectFrom('stored_file')
        .selectAll()
        .where('id', '=', live)
        .executeTakeFirstOrThrow()
      const { id: _id, ...rest } = row
      return (
        await s.database.db
          .insertInto('stored_file')
          .values({ ...rest, purpose, storage_key: storageKey, created_at: new Date().toISOString() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    }
    const young = await copy('profile-image', `young-${dialect}`)
    const unclaimed = await copy('unclaimed', `unclaimed-${dialect}`)
    // A portfolio document whose item row went without releasing it.
    const item = await s.t.call('POST', 'freelancers/profile/portfolios', {
      token: user.token,
      body: { title: 'Footbridge', description: 'Timber footbridge over the Isar' },
    })
    expect(item.status).toBe(200)
    const itemId = item.json.portfolios.at(-1).id
    const doc = await s.t.upload(
      `freelancers/profile/portfolios/${itemId}/file`,
      user.token,
      'calc.pdf',
      tinyPdf(),
    )
    const docId = doc.json.portfolios.at(-1).document.id
    await s.database.db.deleteFrom('freelancer_portfolio').where('id', '=', itemId).execute()
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString()
    await s.database.db
      .updateTable('stored_file')
      .set({ created_at: twoHoursAgo })
      .where('id', '!=', young)
      .execute()
    const droppedKey = (await keyOf(dropped))!

    expect(await files().releaseUnreferenced()).toBe(2)
    const left = new Set(
      (await s.database.db.selectFrom('stored_file').select('id').execute()).map((r) => r.id),
    )
    expect([left.has(live), left.has(young), left.has(dropped), left.has(docId)]).toEqual([
      true,
      true,
      false,
      false,
    ])
    expect(left.has(unclaimed)).toBe(true)
    await drain()
    expect((await stored()).has(droppedKey)).toBe(false)
    expect((await s.t.raw('GET', `files/${live}/download`)).status).toBe(200)
    expect(await files().releaseUnreferenced()).toBe(0)
  })

  const twoHoursAgo = () => new Date(Date.now() - 2 * 3600_000).toISOString()

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

  it('keeps every file that a column points at, in every column that names files, however old', async () => {
    // Every column that names stored files. A new one must be claimed by its module
    // (files.setReferences for the purpose its files have) and get a case below, or this fails.
    const columns = (await s.database.db.introspection.getTables())
      .flatMap((table) =>
        table.columns.filter((c) => /file_id$/.test(c.name)).map((c) => `${table.name}.${c.name}`),
      )
      .sort()
    expect(columns).toEqual([
      'app_user.image_file_id',
      'chat_attachment.file_id',
      'complaint_attachment.file_id',
      'deliverable_issue_file.file_id',
      'freelancer_portfolio.document_file_id',
      'freelancer_portfolio.image_file_id',
      'freelancer_profile.rate_sheet_file_id',
      'project_file.file_id',
    ])

    const freelancer = await s.t.user('freelancer')
    const client = await s.t.user('client')
    const image = idOf(
      (await s.t.upload('freelancers/profile/image', freelancer.token, 'me.png', tinyPng())).json.imageUrl,
    )
    const itemId = (
      await s.t.call('POST', 'freelancers/profile/portfolios', {
        token: freelancer.token,
        body: { title: 'Footbridge' },
      })
    ).json.portfolios[0].id
    await s.t.upload(
      `freelancers/profile/portfolios/${itemId}/image`,
      freelancer.token,
      'bridge.png',
      tinyPng(),
    )
    const item = (
      await s.t.upload(
        `freelancers/profile/portfolios/${itemId}/file`,
        freelancer.token,
        'calc.pdf',
        tinyPdf(),
      )
    ).json.portfolios[0]
    const rateSheet = (
      await s.t.upload('freelancers/profile/rate-sheet', freelancer.token, 'rates.xlsx', tinyXlsx())
    ).json.rateSheet.id
    const sub = await s.database.db
      .selectFrom('subcategory')
      .select('id')
      .where('slug', '=', 'structural-engineering')
      .executeTakeFirstOrThrow()
    const project = await s.t.call('POST', 'projects', {
      token: client.token,
      body: {
        title: 'Steel beam calculations for a kitchen extension',
        description: 'Structural calculations for removing a load-bearing wall and adding a rear extension.',
        subcategoryId: sub.id,
        skillIds: [],
        budgetType: 'fixed',
        budgetMinor: 150000,
        currency: 'EUR',
        durationDays: 21,
        experienceLevel: 'intermediate',
        remote: true,
        installments: [{ title: 'Calculations', amountMinor: 150000 }],
        publish: true,
      },
    })
    expect(project.status, project.text).toBe(200)
    const attached = await s.t.upload(
      `projects/${project.json.id}/uploadProjectFiles`,
      client.token,
      'spec.pdf',
      tinyPdf(),
    )
    expect(attached.status).toBe(200)
    const accepted = await s.t.call('POST', `projects/${project.json.id}/proposal`, {
      token: freelancer.token,
      body: {
        coverLetter: 'I have designed many steel beams for extensions like this one.',
        bidMinor: 150000,
        durationDays: 14,
      },
    })
    const contract = await s.t.call(
      'POST',
      `projects/proposals/${accepted.json.id}/accept/${project.json.id}`,
      { token: client.token },
    )
    // One PDF posted as multipart with the other fields, as the chat's and the complaints' forms send it.
    const withPdf = (path: string, fields: Record<string, string>, token = client.token) => {
      const boundary = '----lifecycle'
      const parts = Object.entries(fields)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('')
      const body = Buffer.concat([
        Buffer.from(
          `${parts}--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="beam.pdf"\r\n\r\n`,
        ),
        tinyPdf(),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      return s.t.raw('POST', path, {
        token,
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      })
    }
    const sent = await withPdf(`chat/${contract.json.roomId}`, { clientMessageId: 'lifecycle-1' })
    expect(sent.status).toBe(200)
    const chatFile = ((await sent.json()) as { attachments: Array<{ id: number }> }).attachments[0].id
    const filed = await withPdf('complaints', {
      subject: `project:${project.json.id}`,
      title: 'The beam calculations were late',
      description: 'The first installment was delivered two weeks after the agreed date.',
    })
    expect(filed.status, await filed.clone().text()).toBe(200)
    const complaintFile = (
      (await filed.json()) as { messages: Array<{ attachments: Array<{ id: number }> }> }
    ).messages[0].attachments[0].id
    // A deliverable issued with its drawing, in the contract's register (decision 318).
    const installmentId = contract.json.installments[0].id as number
    await fund(s.t.call, client, project.json.id, [installmentId])
    const deliverable = await s.t.call('POST', `projects/${project.json.id}/deliverables`, {
      token: freelancer.token,
      body: { number: 'S-101', title: 'Beam calculations', discipline: 'Structures', installmentId },
    })
    expect(deliverable.status, deliverable.text).toBe(200)
    const issued = await withPdf(
      `projects/deliverables/${deliverable.json.id}/issues`,
      { revision: 'P01', status: 'for_comment', note: 'First issue' },
      freelancer.token,
    )
    expect(issued.status, await issued.clone().text()).toBe(200)
    const issueFile = ((await issued.json()) as { issues: Array<{ files: Array<{ id: number }> }> }).issues[0]
      .files[0].id
    const ids = [
      issueFile,
      image,
      item.image.id,
      item.document.id,
      rateSheet,
      attached.json.id as number,
      chatFile,
      complaintFile,
    ]
    await s.database.db.updateTable('stored_file').set({ created_at: twoHoursAgo() }).execute()

    await files().releaseUnreferenced()
    const left = new Set(
      (await s.database.db.selectFrom('stored_file').select('id').where('id', 'in', ids).execute()).map(
        (r) => r.id,
      ),
    )
    expect(ids.filter((id) => !left.has(id))).toEqual([])
  })
})
