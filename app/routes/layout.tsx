import { Outlet, data, useLocation, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/layout'
import { isSetupOnly } from '~/lib/second-factor.server'
import { readFlash } from '~/lib/flash.server'
import { getSession, getUser } from '~/lib/session.server'
import { imageSrc } from '~/lib/image-src'
import { ErrorPage } from '~/components/error-page'
import { Footer } from '~/components/shell/footer'
import { Notices } from '~/components/shell/notices'
import { TopBar } from '~/components/shell/top-bar'
import { bellData, messagesData, type BellData, type MessagesData } from '~/components/shell/bells.server'
import { useShellMenus } from '~/components/shell/use-menus'
import type { ShellCategory, ShellUser } from '~/components/shell/types'
import { readCategories } from '~/lib/catalogue.server'

// The common layout of docs/product.md §2: top bar, page, footer. Its loader gives the shell what it shows
// on every page: the signed-in user, the categories (mega-menu and footer) and a pending notice
// (flash cookie, meant for this page: app/lib/flash.server.ts).
export async function loader({ request, context }: Route.LoaderArgs) {
  const current = getUser(context)
  const user: ShellUser | null = current
    ? { id: current.id, name: current.name, imageUrl: imageSrc(current.imageUrl), roles: current.roles }
    : null
  const { data: categories } = await readCategories(context)
  const { notice, setCookie } = readFlash(request)
  const { token } = getSession(context)
  // A setup-only session (decision 260) has no bell or messages to show yet.
  const [bell, messages] =
    current && token && !isSetupOnly(token)
      ? await Promise.all([bellData(context, new URL(request.url)), messagesData(context)])
      : [null, null]
  const shell: ShellData = { user, categories: shellCategories(categories), notice, bell, messages }
  return data({ shell }, setCookie ? { headers: { 'set-cookie': setCookie } } : undefined)
}

/** What the shell shows; `useShellData` reads it from any page. */
export interface ShellData {
  user: ShellUser | null
  categories: ShellCategory[]
  notice: ReturnType<typeof readFlash>['notice']
  bell: BellData | null
  messages: MessagesData | null
}

// What the menus show of each area.
const shellCategories = (categories: ShellCategory[]) =>
  categories.map(({ id, name, attachmentUrl }) => ({ id, name, attachmentUrl }))

// The shell's data changes only after an action (a sign-in, a subscription, a notice) or when
// the same URL is requested again (docs/product.md §2: navigation reloads then).
export function shouldRevalidate({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return true
  if (currentUrl.href === nextUrl.href) return true
  return defaultShouldRevalidate
}

export default function Layout({ loaderData }: Route.ComponentProps) {
  const { shell } = loaderData
  const { t } = useTranslation()
  const location = useLocation()
  const navigation = useNavigation()
  useShellMenus()
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <div
        className={`progress ${navigation.state === 'idle' ? '' : 'progress-active'}`}
        aria-hidden="true"
      />
      <TopBar
        user={shell.user}
        categories={shell.categories}
        pathname={location.pathname}
        bell={shell.bell}
        messages={shell.messages}
      />
      <Notices notice={shell.notice} />
      <Outlet />
      <Footer categories={shell.categories} />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
