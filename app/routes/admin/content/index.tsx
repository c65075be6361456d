import { redirect } from 'react-router'
import type { Route } from './+types/index'
import { requirePermission } from '~/lib/session.server'

// /admin/content opens on its first tab.
export function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  throw redirect('/admin/content/blogs')
}
