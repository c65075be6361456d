import { describe, expect, test } from 'vitest'
import { createVisitorPages } from './visitor-pages.ts'

// The pages here are real Requests and Responses; `render` stands for React Router and counts its calls.
const PUBLIC = 'public, max-age=0, s-maxage=5'

function page({
  control = PUBLIC,
  status = 200,
  cookie,
}: {
  control?: string
  status?: number
  cookie?: string
}) {
  let renders = 0
  const render = async () => {
    renders++
    const nonce = `nonce${renders}AAAAAAAAAAAAA==`
    const headers = new Headers({
      'content-type': 'text/html',
      'cache-control': control,
      'content-security-policy': `script-src 'self' 'nonce-${nonce}'`,
    })
    if (cookie) headers.set('set-cookie', cookie)
    return new Response(`<p>render ${renders}</p><script nonce="${nonce}"></script>`, { status, headers })
  }
  return { render, renders: () => renders }
}

const get = (headers: Record<string, string> = {}, url = 'http://workneer.test/projects?search=wall') =>
  new Request(url, { headers })
const nonceOf = (response: Response) =>
  /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]

describe("visitors' pages", () => {
  test('a public page is rendered once for visitors within s-maxage, each answer with a nonce of its own', async () => {
    let now = 1_000
    const serve = createVisitorPages({ now: () => now })
    const home = page({})
    const first = await serve(get(), home.render)
    const second = await serve(get(), home.render)
    expect(home.renders()).toBe(1)
    const [a, b] = [await first.text(), await second.text()]
    expect(b).toContain('render 1')
    expect(nonceOf(second)).not.toBe(nonceOf(first))
    expect(a).toContain(`nonce="${nonceOf(first)}"`)
    expect(b).toContain(`nonce="${nonceOf(second)}"`)
    now += 5_001
    expect(await (await serve(get(), home.render)).text()).toContain('render 2')
  })

  test('each language and address is a page of its own, and a reload renders afresh', async () => {
    const serve = createVisitorPages()
    const home = page({})
    await serve(get(), home.render)
    await serve(get({ cookie: 'lang=de' }), home.render)
    await serve(get({ 'accept-language': 'it' }), home.render)
    await serve(get({}, 'http://workneer.test/projects?search=roof'), home.render)
    expect(home.renders()).toBe(4)
    expect(await (await serve(get({ 'cache-control': 'no-cache' }), home.render)).text()).toContain(
      'render 5',
    )
    expect(await (await serve(get(), home.render)).text()).toContain('render 5')
  })

  test('a request with any cookie but the language, or not a GET, is always rendered', async () => {
    const serve = createVisitorPages()
    const home = page({})
    for (const headers of [
      { cookie: 'session=abc' },
      { cookie: 'lang=en; flash=x' },
      { cookie: 'session=abc' },
    ])
      await serve(get(headers), home.render)
    await serve(new Request('http://workneer.test/projects', { method: 'POST', body: 'a=1' }), home.render)
    await serve(new Request('http://workneer.test/projects', { method: 'POST', body: 'a=1' }), home.render)
    expect(home.renders()).toBe(5)
  })

  test('an answer that is not public, not a 200 or sets a cookie is never kept', async () => {
    for (const answer of [
      { control: 'private, no-store' },
      { control: 'public, max-age=60' },
      { status: 404 },
      { cookie: 'lang=de; Path=/' },
    ]) {
      const serve = createVisitorPages()
      const p = page(answer)
      await serve(get(), p.render)
      await serve(get(), p.render)
      expect(p.renders(), JSON.stringify(answer)).toBe(2)
    }
  })
})
