import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { requirePermission } from '~/lib/session.server'
import { useTranslation } from '~/lib/translations'
import { TabNav } from '~/components/ui/tab-nav'
import { adminSections } from './sections'

// Every /admin page sits under this tab row. SuperAdmins only: anyone else is sent to
// /auth/unauthorized (each page's loader checks too, since loaders run side by side).
export function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  return null
}

export default function AdminArea() {
  const { t } = useTranslation('admin')
  return (
    <>
      <div className="container">
        <TabNav
          label={t('nav.label')}
          items={adminSections.map(({ key, ...s }) => ({ ...s, label: t(`nav.${key}`) }))}
        />
      </div>
      <Outlet />
    </>
  )
}
