import type { Caller } from '#server/api/handler.ts'
import type { Locale } from '#server/db/schema.ts'
import type { NotificationsService } from '../notifications/service.ts'
import type { ProfilesService } from '../profiles/service.ts'
import type { ProjectsService } from '../projects/service.ts'
import type { Dashboard } from './contract.ts'

/** How many unread notifications the dashboard lists (the bell has them all). */
export const DASHBOARD_NOTIFICATIONS = 5

// The dashboard composes the modules' own services (never their tables): each keeps its rules and
// its scoping to the caller; this only gathers their answers into one.
export function createDashboardService({
  projects,
  notifications,
  profiles,
}: {
  projects: ProjectsService
  notifications: NotificationsService
  profiles: ProfilesService
}) {
  return {
    async mine(caller: Caller, locale: Locale): Promise<Dashboard> {
      const [work, unread, latest, profile] = await Promise.all([
        projects.workQueue(caller),
        notifications.unreadCount(caller.userId),
        notifications.unread(caller.userId, DASHBOARD_NOTIFICATIONS, locale),
        profiles.completeness(caller, locale),
      ])
      return {
        notifications: { unread, latest },
        // Chat is not built yet: no count rather than a false zero.
        messages: { unread: null },
        // An account without a profile (an administrator) has nothing to complete.
        profile: work.projects || work.proposals ? profile : null,
        ...work,
      }
    },
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>
