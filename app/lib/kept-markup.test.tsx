import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { renderHtml } from '../../tests/support/render'
import { Footer } from '~/components/shell/footer'
import { LanguageSwitcher } from '~/components/shell/language-switcher'
import { ProfileMenu } from '~/components/shell/profile-menu'
import { SideMenu } from '~/components/shell/side-menu'
import { TopBar } from '~/components/shell/top-bar'
import type { BellData, MessagesData } from '~/components/shell/bells.server'
import { createInstance } from 'i18next'
import type { ShellUser } from '~/components/shell/types'
import { Role } from '../../server/modules/identity/permissions'
import { KeptRenderer, forgetKept } from './kept-markup'
import { shared } from './packed'
import { createKeptSplice } from './kept-splice.server'
import { useTranslation } from './use-translation'
import { ProjectCard, type ProjectCardData } from '~/routes/projects/ui'
import { ReceivedProposal } from '~/routes/projects/received-proposal'
import { FreelancerHit } from '~/routes/freelancers/hit'

// The kept parts of the shell (decision 274) must write exactly what React writes for them in
// place: the browser hydrates that HTML as its own. Each case renders the shell's kept parts twice,
// kept and not, and compares the documents byte for byte; then that a second page takes the kept
// HTML (no new render) with its own address, and that a language or a menu of its own is a key.
const categories = [
  { id: 1, name: 'Planning and Strategy', attachmentUrl: '/files/1' },
  { id: 3, name: 'Engineering & "Design"', attachmentUrl: '/files/3' },
]
const freelancer: ShellUser = { id: 7, name: 'Ana Petrović', imageUrl: null, roles: [Role.Freelancer] }
const client: ShellUser = { id: 8, name: 'Sarah <Whitfield>', imageUrl: null, roles: [Role.Client] }

// Kept, an image a part shows is preloaded through react-dom's preload(), which writes the same
// link with its attributes in another order: the links are compared apart, as sets.
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="preload"[^>]*>/g)].map((m) => m[0].match(/href="([^"]*)"/)![1]).sort()
const withoutPreloads = (html: string) => html.replace(/<link rel="preload"[^>]*>/g, '')

let renders = 0
const countingRenderer = (node: React.ReactNode) => (renders++, renderToString(node))

/**
 * Renders as entry.server.tsx does (decision 282): kept parts leave markers, and their bytes are put
 * in after; kept: false renders every part in place. A marker carries the page's nonce, here one per render.
 */
async function rendered(element: React.ReactElement, language: string, at: string, kept: boolean) {
  if (!kept) return renderHtml(element, language, { at })
  const parts = createKeptSplice(`n${Math.random().toString(36).slice(2)}`)
  const html = await renderHtml(element, language, {
    at,
    around: (stub) => (
      <KeptRenderer.Provider value={{ render: countingRenderer, splice: parts.splice }}>
        {stub}
      </KeptRenderer.Provider>
    ),
  })
  expect(html).not.toContain('kept-markup-path-hole')
  return parts.assemble(Buffer.from(html)).toString('utf8')
}

function shell(at: string, { language = 'en', kept = true, user = freelancer as ShellUser | null } = {}) {
  const page = (
    <>
      <SideMenu user={user} categories={categories} />
      <LanguageSwitcher variant="bar" />
      {user ? <ProfileMenu user={user} /> : null}
      <Footer categories={categories} />
    </>
  )
  return rendered(page, language, at, kept)
}

describe('the kept parts of the shell', () => {
  beforeAll(() => forgetKept())

  it('write what React writes in place, byte for byte, the page’s address included', async () => {
    const at = '/projects/freelancer?page=2&q="steel" & <beams>\''
    const kept = await shell(at)
    expect(kept).toBe(await shell(at, { kept: false }))
    expect(
      kept.split(
        'name="redirectTo" value="/projects/freelancer?page=2&amp;q=&quot;steel&quot; &amp; &lt;beams&gt;&#x27;"',
      ),
    ).toHaveLength(4)
    expect(kept).toContain('Ana Petrović')
  })

  it('are rendered once per language and menu: another page reuses them with its own address', async () => {
    forgetKept()
    const before = renders
    await shell('/projects/freelancer')
    // The side menu, the bar's language menu, the account links and the footer (its language menu within).
    expect(renders - before).toBe(4)
    const other = await shell('/dashboard?tab=money')
    expect(renders - before).toBe(4)
    expect(other).toBe(await shell('/dashboard?tab=money', { kept: false }))
    expect(other).not.toContain('name="redirectTo" value="/projects/freelancer"')
    expect(other.split('name="redirectTo" value="/dashboard?tab=money"')).toHaveLength(4)
  })

  it('are kept apart by language and by menu', async () => {
    for (const language of ['de', 'ru'])
      for (const user of [freelancer, client, null])
        expect(await shell('/projects', { language, user }), `${language} ${user?.name ?? 'visitor'}`).toBe(
          await shell('/projects', { language, user, kept: false }),
        )
    expect(await shell('/projects', { language: 'de' })).toContain('Abmelden')
  })
})

// Decision 279: a project card is kept too, its Save button within; it must write what React
// writes in place, for a reader who may save it and one who may not, in every language.
describe('a kept project card', () => {
  const project: ProjectCardData = {
    id: 42,
    title: 'Retaining wall & "drainage" <review>',
    excerpt: 'A cantilever wall of 3 m on clay…',
    status: 'open',
    category: { id: 3, name: 'Engineering' },
    subcategory: { id: 13, name: 'Structural Engineering' },
    skills: [{ id: 55, name: 'Structural analysis' }],
    budgetType: 'fixed',
    budgetMinor: 180_000,
    currency: 'EUR',
    experienceLevel: 'intermediate',
    remote: false,
    location: 'Bristol',
    country: 'GB',
    proposalCount: 1,
    publishedAt: '2026-11-20T10:00:00.000Z',
    createdAt: '2026-11-19T10:00:00.000Z',
    client: { id: 8, name: 'Sarah Whitfield' },
  }
  const cards = (language: string, kept: boolean, save?: { saved: boolean; action: string }) =>
    rendered(
      <ProjectCard p={project} href="/projects/details/42" save={save} />,
      language,
      '/projects/getprojects?search=wall',
      kept,
    )

  it('writes what React writes in place, with and without its Save button, in every language', async () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru'])
      for (const save of [
        undefined,
        { saved: false, action: '/projects/getprojects?search=wall&page=2' },
        { saved: true, action: '/projects/wishlist' },
      ])
        expect(await cards(language, true, save), `${language} ${JSON.stringify(save)}`).toBe(
          await cards(language, false, save),
        )
  })

  it('is rendered once for its props: a change of what it shows is a new key', async () => {
    forgetKept()
    const before = renders
    const save = { saved: false, action: '/projects/getprojects' }
    const first = await cards('en', true, save)
    await cards('en', true, save)
    expect(renders - before).toBe(1)
    const saved = await cards('en', true, { ...save, saved: true })
    expect(renders - before).toBe(2)
    expect(saved).not.toBe(first)
    expect(saved).toContain('value="unwish"')
  })

  // Decision 299: a part's key takes a prop's JSON once only when the prop is shared (frozen).
  it('shows a project changed in place, and keeps a shared project under one key', async () => {
    forgetKept()
    const own = { ...project, title: 'Before' }
    const at = (p: ProjectCardData) =>
      rendered(<ProjectCard p={p} href="/projects/details/42" />, 'en', '/projects/getprojects', true)
    expect(await at(own)).toContain('Before')
    own.title = 'After'
    expect(await at(own)).toContain('After')
    const kept = shared({ ...project, title: 'Kept' })
    const before = renders
    expect(await at(kept)).toContain('Kept')
    expect(await at(kept)).toBe(await at(shared({ ...project, title: 'Kept' })))
    expect(renders - before).toBe(1)
  })
})

// Decision 284: a proposal on the client's project page is kept for what it shows, its forms
// (Accept, a question in the chat, Decline with a reason) included: they post to the page's own
// address, which differs between requests with the same key.
describe('a kept received proposal', () => {
  const proposal = {
    id: 9,
    projectId: 42,
    projectTitle: 'Retaining wall',
    projectStatus: 'open',
    status: 'pending',
    revision: 2,
    rejectReason: null,
    coverLetter: 'Chartered engineer: "clay" <soils> & walls.',
    bidMinor: 108_000,
    currency: 'EUR',
    durationDays: 30,
    installments: [
      { title: 'First half', amountMinor: 54_000 },
      { title: 'Second & last', amountMinor: 54_000 },
    ],
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    decidedAt: null,
    attachments: [{ id: 3, name: 'calc <v2>.pdf', url: '/projects/files/3', size: 20_480 }],
    freelancer: {
      id: 5,
      name: 'Ana Petrović',
      imageUrl: null,
      title: 'Structural Engineer',
      rating: 4.5,
      ratingCount: 2,
    },
  } as unknown as React.ComponentProps<typeof ReceivedProposal>['pr']
  const revisions = [
    {
      revision: 1,
      coverLetter: 'First letter',
      bidMinor: 120_000,
      durationDays: 35,
      installments: [],
      createdAt: '2026-11-19T10:00:00.000Z',
    },
  ]
  const card = (
    language: string,
    kept: boolean,
    at: string,
    props: Partial<React.ComponentProps<typeof ReceivedProposal>> = {},
  ) =>
    rendered(
      <ReceivedProposal pr={proposal} revisions={revisions} answerable {...props} />,
      language,
      at,
      kept,
    )

  it('writes what React writes in place, answerable or not, revised or not, in every language and at any address', async () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru'])
      for (const props of [
        {},
        { answerable: false },
        { revisions: [] },
        {
          pr: { ...proposal, status: 'rejected', rejectReason: 'Too "late" <sorry>' } as typeof proposal,
          answerable: false,
        },
      ])
        for (const at of [
          '/projects/client/details/42',
          '/projects/client/details/42?accepted=1&q="a" <b>',
        ]) {
          const [kept, inPlace] = [
            await card(language, true, at, props),
            await card(language, false, at, props),
          ]
          const what = `${language} ${JSON.stringify(props)} ${at}`
          expect(withoutPreloads(kept), what).toBe(withoutPreloads(inPlace))
          expect(preloads(kept), what).toEqual(preloads(inPlace))
        }
  })

  it('is rendered once for what it shows; its forms post to each page’s own address', async () => {
    forgetKept()
    const before = renders
    const first = await card('en', true, '/projects/client/details/42')
    const other = await card('en', true, '/projects/client/details/42?declined=1')
    expect(renders - before).toBe(1)
    expect(first.match(/<form[^>]*>/g)).toHaveLength(3)
    for (const form of first.match(/<form[^>]*>/g)!)
      expect(form).toContain('action="/projects/client/details/42"')
    for (const form of other.match(/<form[^>]*>/g)!)
      expect(form).toContain('action="/projects/client/details/42?declined=1"')
    await card('en', true, '/projects/client/details/42', { answerable: false })
    expect(renders - before).toBe(2)
  })
})

describe('a kept freelancer in the search results', () => {
  const hit = {
    userId: 5,
    name: 'Ana <Petrović>',
    imageUrl: 'files/9/download?v=1',
    imageDisplayable: true,
    title: 'Structural "Engineer"',
    overview: 'Concrete & steel.',
    country: 'RS',
    countryName: 'Serbia',
    experienceLevel: 'expert',
    availability: 'full_time',
    hourlyRate: { amountMinor: 4_500, currency: 'EUR' },
    rating: { average: 4.5, count: 2 },
    skills: [
      { id: 1, name: 'Eurocodes' },
      { id: 2, name: 'ETABS & SAP2000' },
    ],
  }
  const bare = {
    ...hit,
    imageUrl: null,
    imageDisplayable: false,
    countryName: null,
    country: null,
    experienceLevel: null,
    availability: null,
    hourlyRate: null,
    rating: { average: 0, count: 0 },
    skills: [],
  }

  it('writes what React writes in place, in every language, with and without what a profile may leave out', async () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru'])
      for (const h of [hit, bare]) {
        const [kept, inPlace] = [
          await rendered(<FreelancerHit hit={h} />, language, '/freelancers?search=steel', true),
          await rendered(<FreelancerHit hit={h} />, language, '/freelancers?search=steel', false),
        ]
        expect(withoutPreloads(kept), `${language} ${h.name}`).toBe(withoutPreloads(inPlace))
        expect(preloads(kept)).toEqual(preloads(inPlace))
      }
  })
})

// Decision 280: the whole top bar is kept for what it shows: the reader, the bell's and the messages
// menu's items, and how long ago each notification came, as worded when the page is made.
describe('the kept top bar', () => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000 - 5_000).toISOString()
  const bellOf = (createdDate: string): BellData => ({
    unread: 1,
    items: [
      {
        id: 31,
        title: 'New proposal on "Retaining wall"',
        content: 'Ana <Petrović> sent a proposal',
        isRead: false,
        createdDate,
        senderImage: null,
        roomId: null,
        projectId: 42,
        type: 'Project',
      },
      {
        id: 30,
        title: 'Installment approved',
        content: '',
        isRead: true,
        createdDate: '2026-10-01T08:00:00.000Z',
        senderImage: null,
        roomId: null,
        projectId: 42,
        type: 'Project',
      },
    ],
    moreHref: null,
    expanded: false,
  })
  const messages: MessagesData = {
    unread: 1,
    rooms: [
      {
        id: 5,
        project: { id: 42, title: 'Retaining wall' },
        other: {
          id: 8,
          name: 'Sarah Whitfield',
          firstName: 'Sarah',
          lastName: 'Whitfield',
          imageUrl: '/api/v1/files/9/download?v=1&s=36',
        },
        myRole: 'freelancer',
        contractId: null,
        closed: null,
        unreadCount: 2,
        lastActivityAt: minutesAgo(3),
        createdAt: minutesAgo(60),
        lastMessage: {
          id: 77,
          roomId: 5,
          clientMessageId: null,
          senderId: 8,
          kind: 'text',
          text: 'Is clay <soil> a problem?',
          event: null,
          params: null,
          attachments: [],
          createdAt: minutesAgo(3),
        },
      },
    ],
  }
  const fiveMinutesAgo = minutesAgo(5)
  const bar = (
    language: string,
    kept: boolean,
    {
      user = freelancer as ShellUser | null,
      bell = bellOf(fiveMinutesAgo) as BellData | null,
      at = '/projects/freelancer?page=2',
    } = {},
  ) =>
    rendered(
      <TopBar
        user={user}
        categories={categories}
        pathname={at.split('?')[0]}
        bell={user ? bell : null}
        messages={user ? messages : null}
      />,
      language,
      at,
      kept,
    )

  it('writes what React writes in place, for each kind of reader, in every language', async () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru'])
      for (const user of [freelancer, client, null]) {
        const [kept, inPlace] = [await bar(language, true, { user }), await bar(language, false, { user })]
        expect(withoutPreloads(kept), `${language} ${user?.name ?? 'visitor'}`).toBe(withoutPreloads(inPlace))
        expect(preloads(kept)).toEqual(preloads(inPlace))
      }
    const html = await bar('en', true)
    expect(preloads(html)).toEqual([
      '/api/v1/files/9/download?v=1&amp;s=36',
      '/images/default-avatar.svg',
      '/logo.svg',
    ])
    expect(html).toContain('5 minutes ago')
    expect(html).toContain('name="redirectTo" value="/projects/freelancer?page=2"')
  })

  it('is rendered again when what it shows changes, the time a notification came included', async () => {
    forgetKept()
    const before = renders
    const created = fiveMinutesAgo
    await bar('en', true, { bell: bellOf(created) })
    expect(await bar('en', true, { bell: bellOf(created), at: '/dashboard' })).toContain(
      'name="redirectTo" value="/dashboard"',
    )
    expect(renders - before).toBe(1)
    // The same notification a minute later is worded anew: the kept bar must not say "5 minutes".
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] })
    try {
      const later = await bar('en', true, { bell: bellOf(created) })
      expect(renders - before).toBe(2)
      expect(later).toContain('6 minutes ago')
      expect(later).not.toContain('5 minutes ago')
    } finally {
      vi.useRealTimers()
    }
    // So is a notification once read.
    const read = bellOf(created)
    read.unread = 0
    read.items[0].isRead = true
    await bar('en', true, { bell: read })
    expect(renders - before).toBe(3)
  })

  it('names its namespaces for the browser on every page that writes it, not only the first', async () => {
    forgetKept()
    const namespacesOf = async (kept: boolean) => {
      const i18n = createInstance()
      let used: string[] = []
      const Report = () => (
        (used =
          (
            i18nOf() as { reportNamespaces?: { getUsedNamespaces(): string[] } }
          ).reportNamespaces?.getUsedNamespaces() ?? []),
        null
      )
      let i18nOf = () => i18n as unknown
      await renderHtml(
        <>
          <TopBar
            user={freelancer}
            categories={categories}
            pathname="/projects"
            bell={bellOf(fiveMinutesAgo)}
            messages={messages}
          />
          <ReportWith onI18n={(instance) => (i18nOf = () => instance)} />
          <Report />
        </>,
        'en',
        {
          around: kept
            ? (stub) => (
                <KeptRenderer.Provider
                  value={{ render: countingRenderer, splice: createKeptSplice('n').splice }}
                >
                  {stub}
                </KeptRenderer.Provider>
              )
            : undefined,
        },
      )
      return used.sort()
    }
    const inPlace = await namespacesOf(false)
    expect(inPlace).toEqual(expect.arrayContaining(['auth', 'chat', 'notifications', 'shell']))
    expect(await namespacesOf(true)).toEqual(inPlace)
    // The second page writes the kept HTML without rendering the bar: its namespaces are named all the same.
    const before = renders
    expect(await namespacesOf(true)).toEqual(inPlace)
    expect(renders).toBe(before)
  })
})

/** Hands the test the i18next instance the page renders with. */
function ReportWith({ onI18n }: { onI18n: (i18n: unknown) => void }) {
  const { i18n } = useTranslation()
  onI18n(i18n)
  return null
}
