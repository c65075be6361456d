import type { DB } from '#server/db/database.ts'
import { createProjectReview } from './review/service.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import type { ChatService } from '../chat/service.ts'
import { createProjectSearchIndex } from './search-index.ts'
import { createProjectSearch } from './search.ts'
import { createProjectViews } from './views.ts'
import { createProjects } from './projects.ts'
import { createProjectStatus } from './project-status.ts'
import { createProjectDetails } from './project-details.ts'
import { createAttachments, registerProjectFiles } from './attachments.ts'
import { createProposals } from './proposals.ts'
import { createReceivedProposals } from './received-proposals.ts'
import { createContracts } from './contracts.ts'
import { createRooms } from './rooms.ts'
import { createInstallments, type MoneyMover } from './installments.ts'
import { createContractFunding } from './funding.ts'
import { createComments } from './comments.ts'
import { createFollows } from './follows.ts'
import { createReviews } from './reviews.ts'
import { createWorkQueue } from './work-queue.ts'
import { createOffers } from './offers/service.ts'
import { isClient, isFreelancer } from './shared.ts'

export type { MoneyMover } from './installments.ts'
export { REVIEW_TOPIC } from './reviews.ts'

// The projects module's use cases, one file each, assembled into the service the routes, the
// dashboard and the payments module call. The money mover is the payments module's: it is built
// first, on the projects' funding side (funding.ts), and passed in here.
export function createProjectsService({
  db,
  dialect,
  files,
  chat,
  moneyMover,
}: {
  db: DB
  dialect: Dialect
  files: FileService
  chat: ChatService
  moneyMover: MoneyMover
}) {
  registerProjectFiles(db, files)
  const index = createProjectSearchIndex(dialect)
  const views = createProjectViews({ db, files })
  const workQueue = createWorkQueue({ db, people: views.people })
  return {
    ...createProjects({ db, dialect, files, index, views }),
    ...createProjectStatus({ db, dialect, index }),
    ...createProjectDetails({ db, views }),
    ...createAttachments({ db, files, views }),
    ...createProposals({ db, dialect, views }),
    ...createReceivedProposals({ db, dialect, views }),
    ...createContracts({ db, dialect, chat, index, views }),
    ...createRooms({ db, chat }),
    ...createInstallments({ db, dialect, moneyMover, views }),
    ...createContractFunding({ dialect }),
    ...createComments({ db, views }),
    ...createFollows({ db, views }),
    ...createReviews({ db, dialect, views }),
    ...createProjectSearch({ db, index, views }),
    /** Review before publication: the rule, the queue and the admin's decisions (decision 339). */
    review: createProjectReview({ db, dialect, index, views }),
    /** Direct offers to one freelancer, hired on acceptance as a proposal is (decision 342). */
    offers: createOffers({ db, dialect, chat, index, views }),
    /** What waits on the caller across their projects, proposals and contracts (the dashboard). */
    workQueue: (c: Caller) => workQueue(c, { client: isClient(c), freelancer: isFreelancer(c) }),
  }
}

export type ProjectsService = ReturnType<typeof createProjectsService>
