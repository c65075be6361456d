import net from 'node:net'
import { once } from 'node:events'
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

describe('cookies and limits', () => {
  test('the language cookie is httpOnly, like every cookie the server sets', async () => {
    const chosen = await fetch(`${pages.server.base}/set-language`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: pages.server.base },
      body: new URLSearchParams({ lang: 'de', redirectTo: '/' }),
    })
    expect(cookieOf(chosen, 'lang')).toMatch(/^lang=de;.*HttpOnly/i)
  })

  test('the newsletter form at its limit says to wait, and for how long', async () => {
    let limited: Response | undefined
    for (let i = 0; i < 25 && !limited; i++) {
      const sent = await fetch(`${pages.server.base}/newsletter`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: pages.server.base, cookie: 'lang=en' },
        body: new URLSearchParams({ address: `reader${i}@example.test`, redirectTo: '/faq' }),
      })
      const flash = cookieOf(sent, 'flash')?.split(';')[0]
      const page = await fetch(`${pages.server.base}/faq`, { headers: { cookie: `${flash}; lang=en` } })
      const html = decode(await page.text())
      if (html.includes('Too many attempts')) {
        expect(html).toMatch(/Please try again in \d+ minutes?\./)
        limited = page
      } else expect(html).not.toContain('Something went wrong')
    }
    expect(limited, 'the limit was never reached').toBeDefined()
  })
})

/** One answer read off a socket: its status, head and whether it was whole (by Content-Length or the last chunk). */
function readAnswer(socket: net.Socket, waitMs = 3000) {
  return new Promise<{ status: number; head: string } | null>((resolve) => {
    let received = ''
    const done = (answer: { status: number; head: string } | null) => {
      clearTimeout(timer)
      socket.off('data', onData).off('close', onClose)
      resolve(answer)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1')
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = received.slice(0, end)
      const body = received.slice(end + 4)
      const length = /^content-length:\s*(\d+)/im.exec(head)
      const whole = length ? body.length >= Number(length[1]) : body.endsWith('0\r\n\r\n')
      if (whole) done({ status: Number(head.split(' ')[1]), head })
    }
    const onClose = () => done(null)
    const timer = setTimeout(() => done(null), waitMs)
    socket.on('data', onData).on('close', onClose)
  })
}

describe('a refusal keeps the connection it says it keeps', () => {
  const cases = [
    ['a signed-out POST to the API', '/api/v1/projects', 'application/json', '{"title":"x"}', {}, 401],
    [
      'a page form posted from another site',
      '/projects/create',
      'application/x-www-form-urlencoded',
      'title=x',
      { origin: 'https://elsewhere.example' },
      403,
    ],
  ] as const
  // A client sends the body with the head, or (a slow one, a large body) after it: the refusal comes
  // first, and the client then sends the rest and its next request on the same connection.
  const shapes = cases.flatMap(([name, ...rest]) =>
    (['with its head', 'after the refusal'] as const).map(
      (when) => [`${name}, its body sent ${when}`, ...rest, when] as const,
    ),
  )
  test.each(shapes)(
    '%s: the next request is answered, or the refusal said Connection: close',
    async (_, path, type, body, extra, status, when) => {
      const { port } = new URL(pages.server.base)
      const socket = net.connect({ port: Number(port), host: '127.0.0.1' })
      await once(socket, 'connect')
      const headers = Object.entries({
        'content-type': type,
        'content-length': String(body.length),
        ...extra,
      })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')
      const later = when === 'after the refusal'
      socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${headers}\r\n${later ? '' : body}`)
      const refused = await readAnswer(socket)
      expect(refused?.status).toBe(status)
      if (/^connection:\s*close/im.test(refused!.head)) return void socket.destroy()
      if (later) {
        await new Promise((resolve) => setTimeout(resolve, 400))
        socket.write(body)
      }
      socket.write(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`)
      const next = await readAnswer(socket)
      socket.destroy()
      expect(next?.status, 'the connection kept open answers its next request').toBe(200)
    },
  )
})
