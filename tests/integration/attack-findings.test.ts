import { describe, expect, test } from 'vitest'
import { signedInPageServer } from './page-server.ts'

// What the attack tools found (issue 39, items 12–16), each checked as its class over the built
// server, as a browser or an attacker speaks to it.
const pages = signedInPageServer()

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

const cookieOf = (response: Response, name: string) =>
  response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))

async function aSubcategory() {
  const response = await fetch(`${pages.server.base}/api/v1/settings/dropdowns/subcategories`)
  return ((await response.json()) as { data: Array<{ id: number }> }).data[0]!.id
}

describe('a page shows only notices the server chose', () => {
  test('a file refused while creating a project is told on its page, and the address cannot add words', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({
      title: 'Survey of a listed barn roof',
      description: 'Survey the roof timbers of a listed barn and report on their condition.',
      subcategoryId: String(await aSubcategory()),
      budgetType: 'fixed',
      currency: 'EUR',
      budgetMinor: '900',
      publish: 'true',
    }))
      form.set(name, value)
    form.set('file', new File([Buffer.from('MZ')], 'setup.exe', { type: 'application/octet-stream' }))
    const created = await fetch(`${pages.server.base}/projects/create`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: pages.server.base, cookie: `${pages.session}; lang=en` },
      body: form,
    })
    expect(created.status).toBe(302)
    const details = created.headers.get('location')!
    expect(details).toMatch(/^\/projects\/client\/details\/\d+$/)
    const flash = cookieOf(created, 'flash')!.split(';')[0]
    const shown = await fetch(`${pages.server.base}${details}`, {
      headers: { cookie: `${pages.session}; ${flash}; lang=en` },
    })
    expect(decode(await shown.text())).toMatch(/This kind of file cannot be attached/)

    const forged = await fetch(
      `${pages.server.base}${details}?uploadError=${encodeURIComponent('Your account is locked: call +1 555 0100')}`,
      { headers: { cookie: `${pages.session}; lang=en` } },
    )
    expect(forged.status).toBe(200)
    expect(decode(await forged.text())).not.toContain('Your account is locked')
  })
})

describe("a page whose API call is refused shows the API's answer", () => {
  test('a search the API refuses (a NUL in the terms) is "Invalid Info" with status 400, not a 500 and a stack trace', async () => {
    const before = pages.server.output().length
    const page = await fetch(`${pages.server.base}/freelancers?search=a%00`, {
      headers: { cookie: `${pages.session}; lang=en` },
    })
    expect(page.status).toBe(400)
    const html = decode(await page.text())
    expect(html).toContain('Invalid Info')
    expect(html).not.toContain('Server Error')
    const printed = pages.server.output().slice(before)
    expect(printed).not.toMatch(/^\s+at /m)
  })
})
