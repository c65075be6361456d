// Every module's endpoints, in the order the API matches them (a literal path before a pattern it
// would also match).
import { catalogueRoutes } from '../modules/catalogue/routes.ts'
import { adminCatalogueRoutes } from '../modules/catalogue/admin-routes.ts'
import { identityRoutes } from '../modules/identity/routes.ts'
import { filesRoutes } from '../modules/files/routes.ts'
import { contentRoutes } from '../modules/content/routes.ts'
import { contentAdminRoutes } from '../modules/content/admin-routes.ts'
import { profilesRoutes } from '../modules/profiles/routes.ts'
import { projectsRoutes } from '../modules/projects/routes.ts'
import { projectReviewRoutes } from '../modules/projects/review/routes.ts'
import { deliverablesRoutes } from '../modules/projects/deliverables/routes.ts'
import { notificationsRoutes } from '../modules/notifications/routes.ts'
import { dashboardRoutes } from '../modules/dashboard/routes.ts'
import { chatRoutes } from '../modules/chat/routes.ts'
import { complaintsRoutes } from '../modules/complaints/routes.ts'
import { adminMoneyRoutes } from '../modules/admin-money/routes.ts'
import { adminUsersRoutes } from '../modules/admin-users/routes.ts'
import { changeOrdersRoutes } from '../modules/projects/change-orders/routes.ts'
import { invitationsRoutes } from '../modules/projects/invitations/routes.ts'
import { offersRoutes } from '../modules/projects/offers/routes.ts'
import { timesheetsRoutes } from '../modules/projects/timesheets/routes.ts'
import { alertsRoutes } from '../modules/alerts/routes.ts'
import { dataExportRoutes } from '../modules/data-export/routes.ts'
import { favouritesRoutes } from '../modules/favourites/routes.ts'
import { shortlistRoutes } from '../modules/projects/shortlist/routes.ts'
import { verificationRoutes } from '../modules/verification/routes.ts'
import { hiringRoutes } from '../modules/hiring/routes.ts'
import type { Implementation } from './handler.ts'
import type { Marketplace, Platform, SiteAndAdmin } from './services.ts'

export function routesOf(p: Platform, m: Marketplace, s: SiteAndAdmin): Implementation[] {
  return [
    ...catalogueRoutes(p.catalogue),
    ...contentRoutes(s.content),
    ...contentAdminRoutes(s.contentAdmin),
    ...identityRoutes(p.identity),
    ...filesRoutes(p.files),
    ...profilesRoutes(p.profiles),
    // Before the projects' routes: projects/invitations is a literal path, not a project's id.
    ...invitationsRoutes(m.invitations),
    ...offersRoutes(m.projects.offers),
    ...projectsRoutes(m.projects),
    ...projectReviewRoutes(m.projects.review),
    ...notificationsRoutes(p.notifications),
    ...chatRoutes(p.chat),
    ...dashboardRoutes(s.dashboard),
    ...complaintsRoutes(m.complaints),
    ...adminCatalogueRoutes(s.catalogueAdmin),
    ...adminUsersRoutes(s.adminUsers),
    ...m.payments.routes,
    ...adminMoneyRoutes(s.adminMoney),
    ...changeOrdersRoutes(m.changeOrders),
    ...deliverablesRoutes(m.deliverables),
    ...timesheetsRoutes(m.timesheets),
    ...alertsRoutes(p.alerts),
    ...dataExportRoutes(p.dataExports),
    ...favouritesRoutes(p.favourites),
    ...hiringRoutes(p.hiring),
    ...shortlistRoutes(m.shortlist),
    ...verificationRoutes(p.verification),
  ]
}
