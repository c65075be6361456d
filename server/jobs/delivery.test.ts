import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createApi, type Api } from '../api/index.ts'
import { loadConfig } from '../config.ts'
import { createLogger } from '../log.ts'
import { dialects } from '../../tests/integration/databases.ts'
import { useProjects } from '../../tests/support/modules/projects.ts'
import { tinyPdf, tinyPng } from '../../tests/integration/module-api.ts'

// Immediate delivery, for every service that writes the outbox (identity, content, projects, and
// files through the projects and profiles that release them): with the poll at a minute, what an
// action enqueued is delivered within 200 ms of its answer. The calls go through one API and the
// delivering worker belongs to another over the same database, so nothing the services call can
// wake it: only the commit itself does (db/commit-watch.ts).
const WITHIN_MS = 200

for (const dialect of dialects) {
  describe(`immediate delivery on ${dialect}`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-delivery-'))
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    const s = useProjects(dialect, dataDir)
    let delivering: Api

    beforeAll(async () => {
      delivering = createApi({
        database: s.database,
        log: createLogger('silent'),
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
        outboxPollMs: 60_000,
      })
      delivering.jobs.outbox.start()
    }, 60_000)
    afterAll(async () => {
      await delivering?.jobs.close()
    })

    /** Runs `action`, then answers the topics it enqueued and how long after its answer the last of them was delivered. */
    async function delivered(action: () => Promise<{ status: number }>) {
      const before =
        (
          await s.database.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0
      const answer = await action()
      expect(answer.status).toBe(200)
      const answered = performance.now()
      for (;;) {
        const rows = await s.database.db
          .selectFrom('outbox')
          .select(['topic', 'status', 'run_after'])
          .where('id', '>', Number(before))
          .execute()
        const due = rows.filter((r) => Date.parse(r.run_after) <= Date.now())
        const waited = performance.now() - answered
        if (due.every((r) => r.status === 'done') || waited > 2_000)
          return {
            topics: [...new Set(due.map((r) => r.topic))].sort(),
            waited,
            pending: due.filter((r) => r.status !== 'done').length,
          }
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }

    test('every enqueueing service: delivered within 200 ms of its answer, the poll at a minute', async () => {
      const [client, freelancer] = [await s.t.user('client'), await s.t.user('freelancer')]
      const sub = await s.database.db
        .selectFrom('subcategory')
        .select('id')
        .where('slug', '=', 'structural-engineering')
        .executeTakeFirstOrThrow()
      let projectId = 0
      let proposalId = 0
      let fileId = 0
      const email = `new-${dialect}@delivery.test`
      const cases: Array<[string, string[], () => Promise<{ status: number }>]> = [
        [
          'identity: register',
          ['email'],
          () =>
            s.t.call('POST', 'identity/register', {
              body: {
                accountType: 'client',
                firstName: 'Ada',
                lastName: 'Lovelace',
                email,
                password: 'correct horse battery staple',
                acceptTerms: true,
              },
            }),
        ],
        [
          'identity: forget-password',
          ['email'],
          () => s.t.call('POST', 'identity/forget-password', { body: { email: client.email } }),
        ],
        [
          'content: newsletter',
          ['email'],
          () => s.t.call('POST', `subscribe/${encodeURIComponent(`reader-${dialect}@delivery.test`)}`),
        ],
        [
          'content: contact-us',
          ['email'],
          () =>
            s.t.call('POST', 'support/contact-us', {
              body: {
                name: 'Ada Client',
                email: 'ada@example.com',
                subject: 'Invoice question',
                message: 'Where do I find the invoice of my last payment?',
              },
            }),
        ],
        [
          'projects: a proposal to a client',
          ['projects.notify'],
          async () => {
            const project = await s.t.call('POST', 'projects', {
              token: client.token,
              body: {
                title: 'Foundation check for a garden studio',
                description:
                  'Check the pad foundations of a small timber garden studio on clay soil and send the calculations.',
                subcategoryId: sub.id,
                budgetType: 'fixed',
                budgetMinor: 40000,
                currency: 'EUR',
                durationDays: 7,
                remote: true,
                publish: true,
              },
            })
            projectId = project.json.id
            const proposal = await s.t.call('POST', `projects/${projectId}/proposal`, {
              token: freelancer.token,
              body: {
                coverLetter:
                  'I check foundations on clay soils often and can send the calculations this week.',
                bidMinor: 38000,
                durationDays: 5,
              },
            })
            proposalId = proposal.json.id
            return proposal
          },
        ],
        [
          'projects: a question',
          ['projects.notify'],
          () =>
            s.t.call('POST', `projects/comment/${projectId}`, {
              token: freelancer.token,
              body: { body: 'Is there a soil report for the site?' },
            }),
        ],
        [
          'files: a removed attachment',
          ['files.remove-bytes'],
          async () => {
            fileId = (
              await s.t.upload(
                `projects/${projectId}/uploadProjectFiles`,
                client.token,
                'site-plan.pdf',
                tinyPdf(),
              )
            ).json.id
            return s.t.call('DELETE', `projects/${projectId}/attachments/${fileId}`, { token: client.token })
          },
        ],
        [
          'files: a replaced profile image',
          ['files.remove-bytes'],
          async () => {
            await s.t.upload('freelancers/profile/image', freelancer.token, 'me.png', tinyPng())
            return s.t.upload('freelancers/profile/image', freelancer.token, 'me-again.png', tinyPng())
          },
        ],
        [
          'projects: an accepted proposal',
          ['projects.notify'],
          () =>
            s.t.call('POST', `projects/proposals/${proposalId}/accept/${projectId}`, { token: client.token }),
        ],
      ]
      const results: Record<string, { topics: string[]; waited: number; pending: number }> = {}
      for (const [name, , action] of cases) results[name] = await delivered(action)
      // Every case enqueued what it should, and all of it went out within the bound.
      for (const [name, topics] of cases)
        expect(results[name].topics, name).toEqual(expect.arrayContaining(topics))
      const late = cases
        .map(([name]) => ({ name, ...results[name] }))
        .filter((r) => r.pending || r.waited >= WITHIN_MS)
      expect(late.map((r) => `${r.name}: ${r.pending} pending after ${Math.round(r.waited)} ms`)).toEqual([])
      // What was delivered is what the users see: the client's bell counts the proposal and the question.
      const count = await s.t.call('GET', 'notifications/count', { token: client.token })
      expect(count.json.unreadCount).toBeGreaterThanOrEqual(2)
    }, 60_000)
  })
}
