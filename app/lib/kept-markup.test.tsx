import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderHtml } from '~/components/ui/render.test-support'
import { Footer } from '~/components/shell/footer'
import { LanguageSwitcher } from '~/components/shell/language-switcher'
import { ProfileMenu } from '~/components/shell/profile-menu'
import { SideMenu } from '~/components/shell/side-menu'
import type { ShellUser } from '~/components/shell/types'
import { Role } from '../../server/modules/identity/permissions'
import { KeptRenderer, forgetKept } from './kept-markup'
import { ProjectCard, type ProjectCardData } from '~/routes/projects/ui'

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

let renders = 0
const countingRenderer = (node: React.ReactNode) => (renders++, renderToString(node))

function shell(at: string, { language = 'en', kept = true, user = freelancer as ShellUser | null } = {}) {
  const page = (
    <>
      <SideMenu user={user} categories={categories} />
      <LanguageSwitcher variant="bar" />
      {user ? <ProfileMenu user={user} /> : null}
      <Footer categories={categories} />
    </>
  )
  return renderHtml(page, language, { at, around: kept ? (stub) => <KeptRenderer.Provider value={countingRenderer}>{stub}</KeptRenderer.Provider> : undefined })
}

describe('the kept parts of the shell', () => {
  beforeAll(() => forgetKept())

  it('write what React writes in place, byte for byte, the page’s address included', async () => {
    const at = '/projects/freelancer?page=2&q="steel" & <beams>\''
    const kept = await shell(at)
    expect(kept).toBe(await shell(at, { kept: false }))
    expect(kept.split('name="redirectTo" value="/projects/freelancer?page=2&amp;q=&quot;steel&quot; &amp; &lt;beams&gt;&#x27;"')).toHaveLength(4)
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
      for (const user of [freelancer, client, null]) expect(await shell('/projects', { language, user }), `${language} ${user?.name ?? 'visitor'}`).toBe(await shell('/projects', { language, user, kept: false }))
    expect(await shell('/projects', { language: 'de' })).toContain('Abmelden')
  })
})

// Decision 279: a project card is kept too, its Save button within; it must write what React
// writes in place, for a reader who may save it and one who may not, in every language.
describe('a kept project card', () => {
  const project: ProjectCardData = {
    id: 42, title: 'Retaining wall & "drainage" <review>', excerpt: 'A cantilever wall of 3 m on clay…', status: 'open',
    category: { id: 3, name: 'Engineering' }, subcategory: { id: 13, name: 'Structural Engineering' }, skills: [{ id: 55, name: 'Structural analysis' }],
    budgetType: 'fixed', budgetMinor: 180_000, currency: 'EUR', experienceLevel: 'intermediate', remote: false, location: 'Bristol', country: 'GB',
    proposalCount: 1, publishedAt: '2026-11-20T10:00:00.000Z', createdAt: '2026-11-19T10:00:00.000Z', client: { id: 8, name: 'Sarah Whitfield' },
  }
  const cards = (language: string, kept: boolean, save?: { saved: boolean; action: string }) =>
    renderHtml(<ProjectCard p={project} href="/projects/details/42" save={save} />, language, { at: '/projects/getprojects?search=wall', around: kept ? (stub) => <KeptRenderer.Provider value={countingRenderer}>{stub}</KeptRenderer.Provider> : undefined })

  it('writes what React writes in place, with and without its Save button, in every language', async () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru'])
      for (const save of [undefined, { saved: false, action: '/projects/getprojects?search=wall&page=2' }, { saved: true, action: '/projects/wishlist' }])
        expect(await cards(language, true, save), `${language} ${JSON.stringify(save)}`).toBe(await cards(language, false, save))
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
})
