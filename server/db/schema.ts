import type { AlertsTables } from './schema/alerts.ts'
import type { CatalogueTables } from './schema/catalogue.ts'
import type { ChangeOrdersTables } from './schema/change-orders.ts'
import type { ComplaintsTables } from './schema/complaints.ts'
import type { ContentTables } from './schema/content.ts'
import type { DataExportTables } from './schema/data-exports.ts'
import type { DeliverablesTables } from './schema/deliverables.ts'
import type { FavouritesTables } from './schema/favourites.ts'
import type { HiringTables } from './schema/hiring.ts'
import type { IdentityTables } from './schema/identity.ts'
import type { MessagingTables } from './schema/messaging.ts'
import type { PaymentsTables } from './schema/payments.ts'
import type { PlatformTables } from './schema/platform.ts'
import type { ProfilesTables } from './schema/profiles.ts'
import type { ProjectsTables } from './schema/projects.ts'
import type { TimesheetsTables } from './schema/timesheets.ts'
import type { VerificationTables } from './schema/verification.ts'

// Table shapes as Kysely sees them, one file per area under schema/. Flags are 0/1 integers and
// timestamps ISO-8601 UTC strings on both databases, so services never branch on the dialect.
export * from './schema/locales.ts'
export type * from './schema/catalogue.ts'
export type * from './schema/complaints.ts'
export type * from './schema/content.ts'
export type * from './schema/deliverables.ts'
export type * from './schema/identity.ts'
export type * from './schema/messaging.ts'
export type * from './schema/payments.ts'
export type * from './schema/platform.ts'
export type * from './schema/profiles.ts'
export type * from './schema/projects.ts'
export type * from './schema/change-orders.ts'
export type * from './schema/alerts.ts'
export type * from './schema/data-exports.ts'
export type * from './schema/favourites.ts'
export type * from './schema/verification.ts'
export type * from './schema/hiring.ts'

export interface Database
  extends
    CatalogueTables,
    IdentityTables,
    PlatformTables,
    ContentTables,
    ProfilesTables,
    ProjectsTables,
    MessagingTables,
    PaymentsTables,
    ComplaintsTables,
    ChangeOrdersTables,
    DeliverablesTables,
    TimesheetsTables,
    AlertsTables,
    DataExportTables,
    FavouritesTables,
    VerificationTables,
    HiringTables {}
