import { gzipSync } from 'node:zlib'
import { chromium, type Browser } from '@playwright/test'

// Issue 4's budgets, measured: the JavaScript and CSS a public page makes the browser download
// (gzip bytes, the way the server sends them) and a Lighthouse mobile run of a page. Chromium is
// Debian's (/usr/bin/chromium, or CHROMIUM_PATH); nothing is downloaded.
// Every page a visitor can open (docs/product.md §2), the public auth forms included. A page is a path, or a
// path with the cookies it needs to show (completing a provider sign-up needs the ticket cookie,
// which only that page reads: its form posts the ticket to the API, which checks it).
export interface PublicPage {
  path: string
  cookies?: Record<string, string>
}
const providerTicket = Buffer.from(
  JSON.stringify({
    ticket: 'bench',
    email: 'bench@example.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    provider: 'loopback',
  }),
).toString('base64url')
export const publicPages: (string | PublicPage)[] = [
  '/',
  '/about-us',
  '/why-workneer',
  '/blogs',
  '/blogs/1',
  '/faq',
  '/contact-us',
  '/categories?search=Engineering',
  '/newsletter/unsubscribe/no-such-token',
  '/auth/terms-and-conditions',
  '/auth/login',
  '/auth/gotosign',
  '/auth/forgot-password',
  '/auth/reset-password?token=bench-token-that-is-long-enough',
  '/auth/verify-email',
  '/auth/verify-email?token=bench-invalid-token',
  '/auth/confirm-email?token=bench-invalid-token',
  { path: '/auth/complete-signup', cookies: { oidc_ticket: providerTicket } },
  '/auth/oidc/callback?code=forged&state=forged',
  '/auth/unauthorized',
  '/auth/not-found',
]
export const JS_BUDGET_BYTES = 150 * 1024
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export interface PageWeight {
  path: string
  jsGzip: number
  cssGzip: number
  jsFiles: number
  consoleMessages: string[]
}

export async function measurePageWeights(baseUrl: string, pages = publicPages): Promise<PageWeight[]> {
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  const cache = new Map<string, number>()
  const gz = async (url: string, body: () => Promise<Buffer>) => {
    if (!cache.has(url)) cache.set(url, gzipSync(await body(), { level: 9 }).length)
    return cache.get(url)!
  }
  const out: PageWeight[] = []
  try {
    for (const entry of pages) {
      const { path, cookies = {} } = typeof entry === 'string' ? { path: entry } : entry
      const context = await browser.newContext()
      await context.addCookies(
        Object.entries(cookies).map(([name, value]) => ({ name, value, url: baseUrl + path })),
      )
      const page = await context.newPage()
      const consoleMessages: string[] = []
      page.on('console', (m) => consoleMessages.push(`${m.type()}: ${m.text()}`))
      const pending: Promise<{ kind: 'js' | 'css'; bytes: number }>[] = []
      page.on('response', (r) => {
        const type = r.request().resourceType()
        if (type !== 'script' && type !== 'stylesheet') return
        pending.push(
          gz(r.url(), () => r.body()).then((bytes) => ({ kind: type === 'script' ? 'js' : 'css', bytes })),
        )
      })
      const response = await page.goto(baseUrl + path, { waitUntil: 'networkidle' })
      // A page that sent the browser elsewhere would be measured under the wrong name.
      if (new URL(page.url()).pathname !== new URL(baseUrl + path).pathname)
        throw new Error(`${path} redirected to ${page.url()} (status ${response?.status()})`)
      const files = await Promise.all(pending)
      out.push({
        path,
        jsGzip: files.filter((f) => f.kind === 'js').reduce((s, f) => s + f.bytes, 0),
        cssGzip: files.filter((f) => f.kind === 'css').reduce((s, f) => s + f.bytes, 0),
        jsFiles: files.filter((f) => f.kind === 'js').length,
        consoleMessages,
      })
      await context.close()
    }
  } finally {
    await browser.close()
  }
  return out
}

/** A Lighthouse mobile run of one page; `headers` go with every request (a signed-in session's cookie). */
/**
 * BENCH_LIGHTHOUSE_THROTTLING=devtools slows the network and CPU for real while the page loads,
 * instead of Lighthouse's default estimate from an unthrottled load (decision 369).
 */
export const appliedThrottling = process.env.BENCH_LIGHTHOUSE_THROTTLING === 'devtools'

export async function lighthouseMobile(
  url: string,
  options: { categories?: string[]; headers?: Record<string, string> } = {},
) {
  // The same Debian Chromium, started by Playwright with a debugging port for Lighthouse.
  const lighthouse = (await import('lighthouse')).default
  const { freePort } = await import('./lib.ts')
  const port = await freePort()
  const chrome = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--remote-debugging-port=${port}`],
  })
  try {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: options.categories ?? ['performance', 'accessibility', 'best-practices', 'seo'],
      extraHeaders: options.headers,
      throttlingMethod: appliedThrottling ? 'devtools' : 'simulate',
    })
    if (result?.lhr.runtimeError)
      throw new Error(`Lighthouse could not load ${url}: ${result.lhr.runtimeError.message}`)
    // BENCH_LIGHTHOUSE_JSON=<dir> keeps each report, to see which audits cost points.
    if (process.env.BENCH_LIGHTHOUSE_JSON) {
      const fs = await import('node:fs')
      fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_JSON, { recursive: true })
      fs.writeFileSync(
        `${process.env.BENCH_LIGHTHOUSE_JSON}/lighthouse-${Date.now()}.json`,
        JSON.stringify(result!.lhr),
      )
    }
    const categories = result!.lhr.categories
    const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100)
    const audits = result!.lhr.audits
    return {
      url,
      finalUrl: result!.lhr.finalDisplayedUrl,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      jsBytes: scriptBytes(audits['resource-summary']?.details),
      failedA11y: Object.values(audits)
        .filter(
          (a) =>
            a.score === 0 &&
            (result!.lhr.categories.accessibility?.auditRefs ?? []).some((r) => r.id === a.id),
        )
        .map((a) => a.id),
    }
  } finally {
    await chrome.close()
  }
}

/** The bytes of script the page downloaded, as sent (compressed), from Lighthouse's resource summary. */
function scriptBytes(details: unknown) {
  const items = (details as { items?: Array<{ resourceType: string; transferSize: number }> })?.items ?? []
  return items.find((i) => i.resourceType === 'script')?.transferSize ?? 0
}

export function printWeights(rows: PageWeight[]) {
  const over = rows.filter((r) => r.jsGzip > JS_BUDGET_BYTES).map((r) => r.path)
  console.log(
    `\n${rows.length} public pages; heaviest ${(Math.max(...rows.map((r) => r.jsGzip)) / 1024).toFixed(1)} KB of JavaScript; ${over.length ? `over the budget: ${over.join(', ')}` : 'all within 150 KB'}`,
  )
  console.log('\n| public page | JS gzip KB | JS files | CSS gzip KB | console messages | JS ≤ 150 KB |')
  console.log('| --- | ---: | ---: | ---: | ---: | :---: |')
  for (const r of rows)
    console.log(
      `| ${r.path} | ${(r.jsGzip / 1024).toFixed(1)} | ${r.jsFiles} | ${(r.cssGzip / 1024).toFixed(1)} | ${r.consoleMessages.length} | ${r.jsGzip <= JS_BUDGET_BYTES ? 'yes' : 'NO'} |`,
    )
}

/** Measures a running server (BENCH_URL) or one it starts; part of `npm run bench`. */
export async function runPageBudgets() {
  const { startWorkneer, ensureBuild } = await import('./lib.ts')
  let url = process.env.BENCH_URL
  let stop = () => {}
  if (!url) {
    ensureBuild()
    const w = await startWorkneer({ SEED_DEMO: 'true' })
    url = w.url
    stop = () => w.child.kill()
  }
  try {
    const rows = await measurePageWeights(url)
    printWeights(rows)
    for (const r of rows) for (const m of r.consoleMessages) console.log(`console on ${r.path}: ${m}`)
  } finally {
    stop()
  }
}

// `node bench/page-weight.ts` runs this part of the bench alone.
if (import.meta.main) await runPageBudgets()
