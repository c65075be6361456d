import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, tinyPng, tinyXlsx, useProfiles } from '../../../tests/support/modules/profiles.ts'
import { fund } from '../../../tests/support/modules/payments.ts'
import { fileHelpers } from '../../../tests/support/modules/files.ts'
import { sweepOrphanBytes } from './lifecycle.ts'

// The file sweeps, on both databases, through the real API and folder storage: old bytes that no
// row names are removed and bytes with a row never; old file rows that nothing points at are
// released, never a referenced, young or unclaimed one; every column that names files keeps its
// files however old. Bytes following their rows are in lifecycle.test.ts.
describe.each(portableDialects)('the file sweeps on %s', (dialect) => {
  const s = useProfiles(dialect)
  const { files, stored, keyOf, idOf, drain, twoHoursAgo } = fileHelpers(s)

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
