import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../../tests/integration/databases.ts'
import { tinyPdf, useProjects } from '../../../../tests/support/modules/projects.ts'
import { projectsOutboxHandlers } from '../outbox.ts'
import { NOTIFY_TOPIC, PUBLISHED_TOPIC } from '../transition.ts'

// Review before publication (issue 41 item 6, decision 339) on both databases: each kind of rule,
// the machine's steps (submit, return with a reason, resubmit, approve), the refusals, who sees a
// project that waits, and the client told at each step (a notice and a mail in their language).
for (const dialect of dialects) {
  describe(`project review on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let admin: U, client: U, veteran: U, free: U
    let sub: { id: number; category_id: number }
    let other: { id: number; category_id: number }

    beforeAll(async () => {
      const subs = await s.database.db
        .selectFrom('subcategory')
        .select(['id', 'category_id'])
        .orderBy('id')
        .execute()
      sub = subs[0]!
      other = subs.find((x) => x.category_id !== sub.category_id)!
      admin = await s.t.admin()
      client = await s.t.user('client', 'Rita', 'Nueva')
      veteran = await s.t.user('client', 'Victor', 'Old')
      free = await s.t.user('freelancer', 'Fran', 'Seer')
    }, 60_000)

    const input = (over: Record<string, unknown> = {}) => ({
      title: 'Retaining wall design for a sloped garden',
      description:
        'Design and calculations for a two metre retaining wall in reinforced concrete, with drawings.',
      subcategoryId: sub.id,
      skillIds: [],
      budgetType: 'fixed',
      budgetMinor: 90000,
      currency: 'EUR',
      installments: [{ title: 'Design', amountMinor: 90000 }],
      publish: true,
      ...over,
    })
    const post = async (who: U, over: Record<string, unknown> = {}) => {
      const r = await s.t.call('POST', 'projects', { token: who.token, body: input(over) })
      expect(r.status, r.text).toBe(200)
      return r.json as { id: number; status: string }
    }
    const setRule = (body: unknown, token = admin.token) =>
      s.t.call('PUT', 'Admin/project-review/rule', { token, body })
    const statusOf = async (id: number) =>
      (
        await s.database.db
          .selectFrom('project')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status
    const published = async (id: number) =>
      (
        await s.database.db
          .selectFrom('outbox')
          .select('payload')
          .where('topic', '=', PUBLISHED_TOPIC)
          .execute()
      )
        .map((r) => JSON.parse(r.payload).projectId)
        .filter((p) => p === id).length

    test('the rule is "none" until an admin sets it: a project opens at once', async () => {
      expect((await s.t.call('GET', 'Admin/project-review/rule', { token: admin.token })).json).toMatchObject(
        {
          kind: 'none',
          categoryIds: [],
        },
      )
      const p = await post(veteran)
      expect(p.status).toBe('open')
      expect(await published(p.id)).toBe(1)
    })

    test('"first project": it waits, is returned with a reason, resubmitted, approved, and only then public', async () => {
      expect((await setRule({ kind: 'first' })).status).toBe(200)
      const p = await post(client)
      expect(p.status).toBe('in_review')
      expect(await published(p.id)).toBe(0)
      // Seen by its client and the admin's queue only.
      for (const path of [
        `projects/${p.id}/details-for-freelancer`,
        `projects/comment/${p.id}`,
        `projects/${p.id}/attachments`,
      ])
        expect((await s.t.call('GET', path, { token: free.token })).status, path).toBe(404)
      const found = await s.t.call('GET', 'projects?search=retaining', { token: free.token })
      expect(found.json.data.map((x: { id: number }) => x.id)).not.toContain(p.id)
      const queue = await s.t.call('GET', 'Admin/project-review', { token: admin.token })
      expect(queue.json.data).toEqual([
        expect.objectContaining({ id: p.id, description: expect.any(String) }),
      ])
      // The client cannot publish around the rule, nor edit while it waits.
      expect(
        (await s.t.call('PUT', `projects/${p.id}/updatestate/open`, { token: client.token })).status,
      ).toBe(409)
      expect((await s.t.call('PUT', `projects/${p.id}`, { token: client.token, body: input() })).status).toBe(
        409,
      )
      // Only admins decide; an empty reason is a 400 naming it, and changes nothing.
      expect(
        (await s.t.call('POST', `Admin/project-review/${p.id}/approve`, { token: client.token })).status,
      ).toBe(403)
      const empty = await s.t.call('POST', `Admin/project-review/${p.id}/return`, {
        token: admin.token,
        body: { reason: '  ' },
      })
      expect(empty.status).toBe(400)
      expect(empty.json.errors).toHaveProperty('reason')
      expect(await statusOf(p.id)).toBe('in_review')
      const back = await s.t.call('POST', `Admin/project-review/${p.id}/return`, {
        token: admin.token,
        body: { reason: 'Say what soil report you have.' },
      })
      expect(back.json).toEqual({ id: p.id, status: 'returned' })
      // Decided: a second decision is a conflict.
      expect(
        (await s.t.call('POST', `Admin/project-review/${p.id}/approve`, { token: admin.token })).status,
      ).toBe(409)
      const mine = await s.t.call('GET', 'projects/client', { token: client.token })
      expect(mine.json.data[0]).toMatchObject({
        id: p.id,
        status: 'returned',
        reviewReason: 'Say what soil report you have.',
      })
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free.token })).status,
      ).toBe(404)
      // The client edits and publishes again: back in the queue.
      const again = await s.t.call('PUT', `projects/${p.id}`, {
        token: client.token,
        body: input({
          description: 'Design of a two metre retaining wall; a soil report from 2025 is attached.',
        }),
      })
      expect(again.json).toMatchObject({ status: 'in_review', reviewReason: null })
      const ok = await s.t.call('POST', `Admin/project-review/${p.id}/approve`, { token: admin.token })
      expect(ok.json).toEqual({ id: p.id, status: 'open' })
      expect(await published(p.id)).toBe(1)
      expect(
        (await s.t.call('GET', `projects/${p.id}/details-for-freelancer`, { token: free.token })).status,
      ).toBe(200)
      const search = await s.t.call('GET', 'projects?search=retaining', { token: free.token })
      expect(search.json.data.map((x: { id: number }) => x.id)).toContain(p.id)
      expect(
        (
          await s.t.call('POST', `Admin/project-review/${p.id}/return`, {
            token: admin.token,
            body: { reason: 'x' },
          })
        ).status,
      ).toBe(409)
      // The machine's steps, the admin's audit, and the client's second project opens at once.
      const steps = await s.database.db
        .selectFrom('project_activity')
        .select(['action', 'note'])
        .where('entity', '=', 'project')
        .where('entity_id', '=', p.id)
        .orderBy('id')
        .execute()
      expect(steps.map((a) => a.action)).toEqual([
        'create',
        'submit_for_review',
        'return',
        'edit',
        'submit_for_review',
        'approve',
      ])
      const audit = await s.database.db
        .selectFrom('admin_audit')
        .select(['action', 'reason', 'to_state'])
        .where('object_type', '=', 'project')
        .where('object_id', '=', p.id)
        .orderBy('id')
        .execute()
      expect(audit).toEqual([
        { action: 'project.return', reason: 'Say what soil report you have.', to_state: 'returned' },
        { action: 'project.approve', reason: null, to_state: 'open' },
      ])
      expect((await post(client)).status).toBe('open')
    })

    test("a waiting project's files: its client and the admin read them, a freelancer does not", async () => {
      await setRule({ kind: 'every' })
      const draft = await post(veteran, { publish: false })
      const up = await s.t.upload(
        `projects/${draft.id}/uploadProjectFiles`,
        veteran.token,
        'soil.pdf',
        tinyPdf(),
      )
      expect(up.status).toBe(200)
      const r = await s.t.call('PUT', `projects/${draft.id}/updatestate/open`, { token: veteran.token })
      expect(r.json.status).toBe('in_review')
      const read = async (who: U) =>
        (await s.t.call('GET', `files/${up.json.id}/download`, { token: who.token })).status
      expect(await read(veteran)).toBe(200)
      expect(await read(admin)).toBe(200)
      expect(await read(free)).toBe(404)
      expect(
        (await s.t.call('PUT', `projects/${draft.id}/updatestate/open`, { token: veteran.token })).status,
      ).toBe(409)
      await s.t.call('PUT', `projects/${draft.id}/updatestate/cancelled`, { token: veteran.token })
      await setRule({ kind: 'none' })
    })

    test('the client is told at each step, in the site and by mail', async () => {
      const rows = await s.database.db
        .selectFrom('outbox')
        .select(['id', 'payload'])
        .where('topic', '=', NOTIFY_TOPIC)
        .orderBy('id')
        .execute()
      const mine = rows.filter((r) => JSON.parse(r.payload).userIds.includes(client.id))
      expect(mine.map((r) => JSON.parse(r.payload).kind)).toEqual([
        'projectInReview',
        'projectReturned',
        'projectInReview',
        'projectApproved',
      ])
      const handlers = projectsOutboxHandlers({
        db: s.database.db,
        projects: s.t.api.services.projects,
        notifications: s.t.api.services.notifications,
        hubs: null,
      })
      const returned = mine[1]!
      await handlers[NOTIFY_TOPIC]!(JSON.parse(returned.payload), {
        id: returned.id,
        attempts: 0,
        topic: NOTIFY_TOPIC,
      })
      const bell = await s.t.call('GET', 'notifications', { token: client.token })
      expect(JSON.stringify(bell.json)).toContain('Say what soil report you have.')
      const mails = await s.database.db
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', 'email')
        .execute()
      expect(mails.map((m) => m.payload).join('\n')).toContain('Say what soil report you have.')
    })

    test('"every project" and "projects in these categories"; a bad rule is a 400 naming the field', async () => {
      expect((await setRule({ kind: 'every' })).status).toBe(200)
      expect((await post(veteran)).status).toBe('in_review')
      const bad = await setRule({ kind: 'categories', categoryIds: [987654] })
      expect(bad.status).toBe(400)
      expect(bad.json.errors).toHaveProperty('categoryIds')
      expect((await setRule({ kind: 'categories', categoryIds: [] })).status).toBe(400)
      expect((await s.t.call('GET', 'Admin/project-review/rule', { token: admin.token })).json.kind).toBe(
        'every',
      )
      expect((await setRule({ kind: 'first' }, client.token)).status).toBe(403)
      expect((await setRule({ kind: 'categories', categoryIds: [sub.category_id] })).status).toBe(200)
      expect((await post(veteran)).status).toBe('in_review')
      expect((await post(veteran, { subcategoryId: other.id })).status).toBe('open')
      const queue = await s.t.call('GET', 'Admin/project-review', { token: admin.token })
      const times = queue.json.data.map((x: { submittedAt: string }) => x.submittedAt)
      expect(times).toEqual([...times].sort())
      const rule = await s.database.db
        .selectFrom('admin_audit')
        .select('to_state')
        .where('action', '=', 'project.review-rule')
        .orderBy('id')
        .execute()
      expect(rule.map((r) => r.to_state)).toEqual(['first', 'every', 'none', 'every', 'categories'])
      await setRule({ kind: 'none' })
    })
  })
}
