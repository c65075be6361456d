import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../../files/service.ts'
import { createProjectViews } from '../views.ts'
import { registerDeliverableFiles } from './access.ts'
import { addDeliverable } from './add.ts'
import { answerIssue } from './answer.ts'
import { issueDeliverable, issueDeliverableForm, issueTransmittal } from './issue.ts'
import { createRegisterReads } from './read.ts'
import type { AnswerInput, DeliverableInput, IssueInput, TransmittalInput } from './schemas.ts'

// The deliverables register's use cases (decision 318), assembled for its routes. Each write
// answers the deliverable as it now reads.
export function createDeliverables({
  db,
  dialect,
  files,
  publicUrl,
}: {
  db: DB
  dialect: Dialect
  files: FileService
  publicUrl: string
}) {
  registerDeliverableFiles(db, files)
  const reads = createRegisterReads({ db, files, views: createProjectViews({ db, files }) })
  const deps = { db, dialect, files, publicUrl }
  return {
    ...reads,
    async add(caller: Caller, projectId: number, input: DeliverableInput) {
      return reads.deliverable(caller, await addDeliverable(deps, caller, projectId, input))
    },
    async issue(caller: Caller, deliverableId: number, input: IssueInput) {
      await issueDeliverable(deps, caller, deliverableId, input)
      return reads.deliverable(caller, deliverableId)
    },
    async issueForm(caller: Caller, deliverableId: number, request: Request) {
      await issueDeliverableForm(deps, caller, deliverableId, request)
      return reads.deliverable(caller, deliverableId)
    },
    /** Several deliverables of an installment under one transmittal; answers the transmittal. */
    async issueTransmittal(caller: Caller, projectId: number, input: TransmittalInput) {
      return reads.transmittal(caller, await issueTransmittal(deps, caller, projectId, input))
    },
    async answer(caller: Caller, issueId: number, input: AnswerInput) {
      return reads.deliverable(caller, await answerIssue(deps, caller, issueId, input))
    },
  }
}

export type DeliverablesService = ReturnType<typeof createDeliverables>
