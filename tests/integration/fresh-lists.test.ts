import { describe, expect, test } from 'vitest'
import { PAGE_FREELANCER, signedInPageServer } from './page-server.ts'

// What is the same for everyone in a language (Find Project's lists, Find Freelancers' answers)
// shows a write this server serves at once, to whoever looks next: signed in or not.
const pages = signedInPageServer({ freelancer: true })

const page = async (path: string, cookie?: string) => {
  const response = await fetch(`${pages.server.base}${path}`, {
    headers: { 'cache-control': 'no-cache', ...(cookie ? { cookie } : {}) },
  })
  expect(response.status).toBe(200)
  return response.text()
}
const token = () => pages.session.slice('session='.length)

async function publish(title: string) {
  const tree = (await (await fetch(`${pages.server.base}/api/v1/settings/all-categories`)).json()) as {
    data: Array<{ subcategories: Array<{ id: number }> }>
  }
  const subcategoryId = tree.data.flatMap((c) => c.subcategories)[0]!.id
  const body = {
    title,
    description: 'A steel footbridge of 24 m over a river, with its foundations on piles.',
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor: 250_000,
    currency: 'EUR',
    remote: true,
    publish: true,
  }
  const response = await fetch(`${pages.server.base}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
}

describe('lists shared by everyone', { timeout: 60_000 }, () => {
  test('a project published through this server is on Find Project at once, for a signed-in reader and a visitor', async () => {
    const title = 'Steel footbridge over the mill race'
    for (const path of ['/projects', '/projects/getprojects?search=footbridge']) {
      expect(await page(path, pages.session)).not.toContain(title)
      expect(await page(path)).not.toContain(title)
    }
    await publish(title)
    for (const path of ['/projects', '/projects/getprojects?search=footbridge']) {
      expect(await page(path, pages.session)).toContain(title)
      expect(await page(path)).toContain(title)
    }
  })

  test('a freelancer who retitles their profile through this server is found by that title on Find Freelancers at once', async () => {
    const title = 'Geotextile and retaining wall specialist'
    const path = '/freelancers?search=geotextile'
    expect(await page(path, pages.session)).not.toContain(title)
    const login = await fetch(`${pages.server.base}/api/v1/identity/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(PAGE_FREELANCER),
    })
    expect(login.status).toBe(200)
    const { token: freelancer } = (await login.json()) as { token: string }
    const retitled = await fetch(`${pages.server.base}/api/v1/freelancers/profile/title`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${freelancer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    })
    expect(retitled.status).toBe(200)
    expect(await page(path, pages.session)).toContain(title)
  })
})
