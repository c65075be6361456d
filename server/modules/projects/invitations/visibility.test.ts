import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../../tests/integration/module-api.ts'
import { projectBody, publish, settle, structural } from '../../../../tests/support/modules/alerts.ts'
import { waitingMatches } from '../../alerts/waiting.ts'

// A project's visibility on both databases (decision 335): an invite-only project is found by no
// search, suggestion or job alert, and answers 404 to all but its client, the freelancers it
// invited and admins, on every door (its page, proposals, files, questions, follows); a
// signed-in-only project is left out for visitors and asks them to sign in (401).
for (const dialect of dialects) {
  describe(`project visibility on ${dialect}`, () => {
    const s = useModuleApi(dialect, () => ({ name: 'visibility', addressBlock: 94 }))
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, fred: U, fiona: U, admin: U
    let cat: Awaited<ReturnType<typeof structural>>
    let hidden: number, members: number, everyone: number
    beforeAll(async () => {
      cat = await structural(s.database)
      client = await s.t.user('client', 'Clara', 'Client')
      fred = await s.t.user('freelancer', 'Fred', 'Invited')
      fiona = await s.t.user('freelancer', 'Fiona', 'Outside')
      admin = await s.t.admin()
      // The freelancers' alerts watch the subcategory, so each publication is matched or not.
      for (const who of [fred, fiona])
        await s.t.call('POST', 'SavedSearches', {
          token: who.token,
          body: { name: 'Structures', subcategoryId: cat.sub.id },
        })
      const body = (title: string, visibility: string) =>
        projectBody(cat.sub.id, cat.skills, { title, visibility })
      hidden = await publish(s.t, client.token, body('Quietly retrofit a listed footbridge', 'invited'))
      members = await publish(s.t, client.token, body('Members review a footbridge deck', 'signed_in'))
      everyone = await publish(s.t, client.token, body('Everyone inspects a footbridge pier', 'public'))
      const made = await s.t.call('POST', `projects/${hidden}/invitations`, {
        token: client.token,
        body: { freelancerId: fred.id, message: 'Only you for this one.' },
      })
      expect(made.status, made.text).toBe(200)
      await settle(s.t)
    }, 90_000)

    const found = async (token: string | undefined, query = 'footbridge') => {
      const r = await s.t.call('GET', `projects?search=${query}`, { token })
      expect(r.status, r.text).toBe(200)
      return r.json.data.map((p: { id: number }) => p.id).sort()
    }
    const suggested = async (token?: string) =>
      (await s.t.call('GET', 'projects/HomeSearch/projects/footbridge', { token })).json.data.map(
        (p: { id: number }) => p.id,
      )

    test('searches and suggestions: a visitor finds the public project, anyone signed in also the members-only one', async () => {
      expect(await found(undefined)).toEqual([everyone])
      expect(await found(fiona.token)).toEqual([everyone, members].sort())
      // Even the invited freelancer and the client find the invite-only project by no search.
      expect(await found(fred.token)).toEqual([everyone, members].sort())
      expect(await found(client.token, 'retrofit')).toEqual([])
      expect((await suggested()).sort()).toEqual([everyone])
      expect((await suggested(fiona.token)).sort()).toEqual([everyone, members].sort())
    })

    test('job alerts match the public and members-only projects, never the invite-only one', async () => {
      const searches = await s.database.db
        .selectFrom('saved_search')
        .selectAll()
        .where('owner_id', 'in', [fred.id, fiona.id])
        .execute()
      const waiting = await waitingMatches(s.database.db, searches, new Date().toISOString())
      for (const who of [fred, fiona])
        expect(
          searches
            .filter((q) => q.owner_id === who.id)
            .flatMap((q) => waiting.get(q.id) ?? [])
            .sort(),
        ).toEqual([everyone, members].sort())
    })

    test('the invite-only project answers 404 to everyone else, on every door', async () => {
      const doors: Array<[string, string, unknown?]> = [
        ['GET', `projects/${hidden}/details-for-freelancer`],
        ['GET', `projects/comment/${hidden}`],
        ['POST', `projects/comment/${hidden}`, { body: 'Is it steel?' }],
        ['GET', `projects/${hidden}/attachments`],
        ['POST', `projects/${hidden}/wishlist`],
        ['POST', `projects/subscrib/${hidden}`],
        ['GET', `projects/${hidden}/client-proposals`],
        ['GET', `projects/${hidden}/invitations`],
        [
          'POST',
          `projects/${hidden}/proposal`,
          {
            coverLetter: 'I retrofit bridges every month, happy to help.',
            bidMinor: 150000,
            durationDays: 9,
          },
        ],
      ]
      const before = await s.database.db.selectFrom('project_comment').select('id').execute()
      for (const [method, path, body] of doors) {
        const r = await s.t.call(method, path, { token: fiona.token, body })
        expect(r.status, `${method} ${path}: ${r.text}`).toBe(404)
        expect(r.text).not.toContain('Quietly')
      }
      expect(await s.database.db.selectFrom('project_comment').select('id').execute()).toEqual(before)
      expect((await s.t.call('GET', `projects/comment/${hidden}`)).status).toBe(404)
      for (const who of [fred, admin, client]) {
        const r = await s.t.call('GET', `projects/${hidden}/details-for-freelancer`, { token: who.token })
        expect(r.status, r.text).toBe(200)
      }
      const sent = await s.t.call('POST', `projects/${hidden}/proposal`, {
        token: fred.token,
        body: {
          coverLetter: 'I retrofit bridges every month, happy to help.',
          bidMinor: 150000,
          durationDays: 9,
        },
      })
      expect(sent.status, sent.text).toBe(200)
    })

    test('a members-only project asks a visitor to sign in, and shows to anyone signed in', async () => {
      expect((await s.t.call('GET', `projects/comment/${members}`)).status).toBe(401)
      expect((await s.t.call('GET', `projects/comment/${members}`, { token: fiona.token })).status).toBe(200)
      expect((await s.t.call('GET', `projects/comment/${everyone}`)).status).toBe(200)
      const page = await s.t.call('GET', `projects/${members}/details-for-freelancer`, { token: fiona.token })
      expect(page.json.project.visibility).toBe('signed_in')
    })

    test('a project made invite-only leaves the searches and the wishlists of those it no longer shows to', async () => {
      expect((await s.t.call('POST', `projects/${members}/wishlist`, { token: fiona.token })).status).toBe(
        200,
      )
      const wished = async () =>
        (await s.t.call('GET', 'projects/wishlist', { token: fiona.token })).json.data.map(
          (p: { id: number }) => p.id,
        )
      expect(await wished()).toEqual([members])
      const edited = await s.t.call('PUT', `projects/${members}`, {
        token: client.token,
        body: projectBody(cat.sub.id, cat.skills, {
          title: 'Members review a footbridge deck',
          visibility: 'invited',
        }),
      })
      expect(edited.status, edited.text).toBe(200)
      expect(await wished()).toEqual([])
      expect(await found(fiona.token)).toEqual([everyone])
    })
  })
}
