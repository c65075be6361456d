import { describe, expect, test } from 'vitest'
import { PAGE_ACCOUNT, signedInPageServer } from './page-server.ts'

// A project has one input schema, shared by the Create Project form and POST /api/v1/projects
// (server/modules/projects/schemas/project.ts). A rule written there once, the past deadline,
// answers the same error through both doors, in the reader's language, over the built server.
const pages = signedInPageServer()

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
const nextYear = () => `${new Date().getUTCFullYear() + 1}-06-30`
const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

async function apiToken() {
  const response = await fetch(`${pages.server.base}/api/v1/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: PAGE_ACCOUNT.email, password: PAGE_ACCOUNT.password }),
  })
  return ((await response.json()) as { token: string }).token
}

async function aSubcategory() {
  const response = await fetch(`${pages.server.base}/api/v1/settings/dropdowns/subcategories`)
  return ((await response.json()) as { data: Array<{ id: number }> }).data[0]!.id
}

/** The Create Project form as a browser without JavaScript posts it. */
function postForm(fields: Record<string, string>, lang: string) {
  return fetch(`${pages.server.base}/projects/create`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: pages.server.base, cookie: `${pages.session}; lang=${lang}` },
    body: new URLSearchParams({ ...fields, publish: 'true' }),
  })
}

function postApi(token: string, body: Record<string, unknown>, lang: string) {
  return fetch(`${pages.server.base}/api/v1/projects`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'accept-language': lang,
    },
    body: JSON.stringify({ ...body, publish: true }),
  })
}

describe('one input schema per entity', () => {
  test.each([
    ['en', 'The deadline cannot be in the past.'],
    ['de', 'Die Frist darf nicht in der Vergangenheit liegen.'],
  ])(
    'a past deadline is refused with the same words by the form and by the API (%s)',
    async (lang, words) => {
      const subcategoryId = await aSubcategory()
      const project = {
        title: 'Retaining wall check',
        description: 'Check the retaining wall behind the garage and write a short report.',
        subcategoryId,
        budgetType: 'fixed',
        currency: 'EUR',
        deadline: yesterday(),
      }
      // The form types the budget as people write it; the API takes minor units.
      const form = await postForm(
        { ...project, subcategoryId: String(subcategoryId), budgetMinor: '800' },
        lang,
      )
      expect(form.status).toBe(400)
      const page = decode(await form.text())
      expect(page).toContain(words)

      const api = await postApi(await apiToken(), { ...project, budgetMinor: 80_000 }, lang)
      expect(api.status).toBe(400)
      const problem = (await api.json()) as { code: string; errors: Record<string, string[]> }
      expect(problem.code).toBe('invalid_input')
      expect(problem.errors).toEqual({ deadline: [words] })
    },
  )

  test('a deadline still ahead is kept, and the project page and My Projects show it', async () => {
    const form = await postForm(
      {
        title: 'Footing design for a garden office',
        description: 'Design the footings of a timber garden office on clay, with a drawing.',
        subcategoryId: String(await aSubcategory()),
        budgetType: 'fixed',
        currency: 'EUR',
        budgetMinor: '1200.50',
        deadline: nextYear(),
        remote: 'false',
        location: 'Valencia',
      },
      'en',
    )
    expect(form.status).toBe(302)
    const details = form.headers.get('location')!
    expect(details).toMatch(/^\/projects\/client\/details\/\d+/)
    const shown = `Deadline: Jun 30, ${new Date().getUTCFullYear() + 1}`
    for (const url of [details, '/projects/client']) {
      const page = await fetch(`${pages.server.base}${url}`, {
        headers: { cookie: `${pages.session}; lang=en` },
      })
      expect(decode(await page.text()), url).toContain(shown)
    }
  })
})

describe('the Create Project form', () => {
  test("starts in the currency of the client's newest project", async () => {
    const posted = await postApi(
      await apiToken(),
      {
        title: 'Crane base check for a tower crane',
        description: 'Check the crane base design against the site investigation and write a short note.',
        subcategoryId: await aSubcategory(),
        budgetType: 'fixed',
        currency: 'USD',
        budgetMinor: 150_000,
      },
      'en',
    )
    expect(posted.status, await posted.clone().text()).toBe(200)
    const form = await fetch(`${pages.server.base}/projects/create`, {
      headers: { cookie: `${pages.session}; lang=en` },
    })
    const select = /<select[^>]*name="currency"[^>]*>([\s\S]*?)<\/select>/.exec(await form.text())![1]
    expect(/<option[^>]*selected[^>]*>([^<]+)</.exec(select)?.[0]).toMatch(/value="USD"/)
  })
})
