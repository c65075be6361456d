import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { requirePermission } from '~/lib/session.server'
import { useTranslation } from '~/lib/translations'
import { TabNav } from '~/components/ui/tab-nav'
import { contentKinds } from '#server/modules/content/kinds.ts'

// /admin/content: the public site's content, one tab per kind (issue 18 item 3, decision 242).
export function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  return null
}

export default function ContentArea() {
  const { t } = useTranslation('adminContent')
  return (
    <div className="container">
      <TabNav
        label={t('nav')}
        items={contentKinds.map((k) => ({ to: `/admin/content/${k}`, label: t(`kinds.${k}.title`) }))}
      />
      <Outlet />
    </div>
  )
}
