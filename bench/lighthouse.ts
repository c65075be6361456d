import { loadavg } from 'node:os'
import path from 'node:path'
import { openDatabase } from '#server/db/database.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { enableForTests } from '#server/modules/identity/second-factor.ts'
import { signInWithCode, writeAccounts } from '../tests/support/accounts.ts'
import { ensureTestBuild } from '../tests/support/test-build.ts'
import { ensureBuild, startWorkneer } from './lib.ts'
import { appliedThrottling, lighthouseMobile } from './page-weight.ts'
import { AUTH_SECRET, DEMO_PASSWORD, demoSessions } from './signed-in.ts'

// Issue 38: how fast a page is for a phone on a slow network (Lighthouse's mobile audit: simulated
// slow 4G and a 4× slower CPU, Debian's Chromium), for the visitor's pages and each role's signed-in
// pages of the demo marketplace: performance (median of BENCH_LIGHTHOUSE_RUNS runs, 3), first and
// largest contentful paint, total blocking time, layout shift and the script bytes downloaded
// (BENCH_LIGHTHOUSE_PAGES=<regular expression> for some pages only).
// `node bench/lighthouse.ts --compare <checkout>` measures another checkout's build (say, main before a
// change) in the same run, page by page beside this one, and prints both.
const ADMIN = { email: 'ada.bench@example.test', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }

type Session = 'visitor' | 'client' | 'freelancer' | 'admin'
interface Page {
  name: string
  session: Session
  path: (ids: { contractProject: number }) => string
}
const pages: Page[] = [
  { name: 'home, visitor', session: 'visitor', path: () => '/' },
  { name: 'Find Project, visitor', session: 'visitor', path: () => '/projects/getprojects' },
  { name: 'login', session: 'visitor', path: () => '/auth/login' },
  { name: 'dashboard, client', session: 'client', path: () => '/dashboard' },
  { name: 'My Projects, client', session: 'client', path: () => '/projects/client' },
  { name: 'Find Project, freelancer', session: 'freelancer', path: () => '/projects/getprojects' },
  { name: 'My Contracts, freelancer', session: 'freelancer', path: () => '/projects/freelancer' },
  {
    name: 'the contract, freelancer',
    session: 'freelancer',
    path: ({ contractProject }) => `/projects/freelancer/contract/${contractProject}`,
  },
  { name: 'chats, freelancer', session: 'freelancer', path: () => '/chats' },
  { name: 'admin overview', session: 'admin', path: () => '/admin' },
]

/** A SuperAdmin with an authenticator app, written into the server's database; its session token. */
export async function adminToken(base: string, dataDir: string) {
  const db = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') })
  try {
    const admin = { email: ADMIN.email, firstName: 'Ada', lastName: 'Bench', accountType: 'client' } as const
    const [id] = await writeAccounts(db, [{ ...admin, roles: [Role.SuperAdmin] }], DEMO_PASSWORD)
    await enableForTests(db.db, id!, ADMIN.secret, [], AUTH_SECRET)
  } finally {
    await db.close()
  }
  return signInWithCode(base, { email: ADMIN.email, password: DEMO_PASSWORD }, ADMIN.secret)
}

/** One server of the demo marketplace (this checkout's build, or another's) and its sessions. */
async function startMarketplace(checkout?: string) {
  const server = await startWorkneer({ SEED_DEMO: 'true', DEMO_PASSWORD, AUTH_SECRET }, 'inherit', {
    ...(checkout && { checkout }),
  })
  const demo = await demoSessions(server.url)
  const tokens: Record<Session, string> = {
    visitor: '',
    client: demo.client,
    freelancer: demo.freelancer,
    admin: await adminToken(server.url, server.dataDir),
  }
  return { ...server, tokens, ids: demo }
}

type Run = Awaited<ReturnType<typeof lighthouseMobile>>
const median = (runs: Run[]) => [...runs].sort((a, b) => a.performance - b.performance)[runs.length >> 1]!
const cells = (r: Run) =>
  `${r.performance} | ${(r.fcpMs / 1000).toFixed(1)} s | ${(r.lcpMs / 1000).toFixed(1)} s | ${r.tbtMs} | ${r.cls} | ${(r.jsBytes / 1024).toFixed(0)}`

export async function runLighthouseBench(compare?: string) {
  ensureBuild()
  // Built the same way as this checkout, and only when its build is older than its sources.
  if (compare) ensureTestBuild('BENCH', compare)
  const builds = [{ label: 'this build', server: await startMarketplace() }]
  if (compare) builds.unshift({ label: compare, server: await startMarketplace(compare) })
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)
  const header = '| perf | FCP | LCP | TBT ms | CLS | JS KB '
  const throttling = appliedThrottling ? 'applied' : 'simulated'
  console.log(
    `\nLighthouse mobile, ${throttling} throttling, median of ${runs} (load average ${loadavg()[0]!.toFixed(2)})`,
  )
  console.log(`| page ${builds.map((b) => `${header}(${b.label}) `).join('')}|`)
  console.log(`| --- ${builds.map(() => '| ---: '.repeat(6)).join('')}|`)
  try {
    // BENCH_LIGHTHOUSE_PAGES=<regular expression> measures only the pages whose names match it.
    const only = new RegExp(process.env.BENCH_LIGHTHOUSE_PAGES ?? '')
    for (const page of pages.filter((p) => only.test(p.name))) {
      const measured = builds.map(() => [] as Run[])
      // The builds take turns run by run, so a busier moment of the machine falls on both.
      for (let i = 0; i < runs; i++)
        for (const [b, { server }] of builds.entries()) {
          const token = server.tokens[page.session]
          const url = `${server.url}${page.path(server.ids)}`
          const options = {
            categories: ['performance'],
            ...(token && { headers: { cookie: `session=${token}` } }),
          }
          measured[b]!.push(await lighthouseMobile(url, options).catch(() => lighthouseMobile(url, options)))
        }
      console.log(`| ${page.name} | ${measured.map((m) => cells(median(m))).join(' | ')} |`)
    }
    // Other work on the machine shows in the figures less than in timings, but it is said.
    console.log(`(load average at the end ${loadavg()[0]!.toFixed(2)})`)
  } finally {
    for (const { server } of builds) server.child.kill()
  }
}

// `node bench/lighthouse.ts [--compare <checkout>]` runs this part of the bench alone.
if (import.meta.main) {
  const at = process.argv.indexOf('--compare')
  await runLighthouseBench(at > 0 ? path.resolve(process.argv[at + 1]!) : undefined)
}
