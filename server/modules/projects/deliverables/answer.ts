import type { Caller } from '#server/api/handler.ts'
import { conflict, lockRow } from '../transition.ts'
import { nowIso } from '../shared.ts'
import { issueOf, requireRole } from './access.ts'
import { stateConflict, type WriteDeps } from './add.ts'
import { recordAnswer } from './events.ts'
import type { AnswerInput } from './schemas.ts'

// The client answers an issue: approved, approved with comments, or revise and resubmit. One
// answer per issue, never changed; only the latest issue of a deliverable is answered. "Revise and
// resubmit" asks for changes to the installment, as its own "request changes" does, so the
// freelancer's next issue submits it again.

const kinds = {
  approved: 'deliverableApproved',
  approved_with_comments: 'deliverableApprovedWithComments',
  revise_and_resubmit: 'deliverableToRevise',
} as const

export async function answerIssue(deps: WriteDeps, caller: Caller, issueId: number, input: AnswerInput) {
  const { db, dialect } = deps
  const party = await issueOf(db, caller, issueId)
  requireRole(party, 'client')
  return db.transaction().execute(async (trx) => {
    const contract = (await lockRow(trx, dialect, 'contract', party.contract.id))!
    const i = (await lockRow(trx, dialect, 'installment', party.installmentId))!
    const answered = await trx
      .selectFrom('deliverable_response')
      .select('outcome')
      .where('issue_id', '=', issueId)
      .executeTakeFirst()
    if (answered)
      throw stateConflict('outcome', 'This issue is already answered', answered.outcome, 'already_answered')
    if (contract.status !== 'active')
      throw conflict(`The contract is ${contract.status}; nothing more is answered`, contract.status)
    const issue = await trx
      .selectFrom('deliverable_issue as x')
      .innerJoin('deliverable as d', 'd.id', 'x.deliverable_id')
      .select(['x.revision', 'x.sequence', 'd.id as deliverable_id', 'd.number'])
      .where('x.id', '=', issueId)
      .executeTakeFirstOrThrow()
    const newer = await trx
      .selectFrom('deliverable_issue')
      .select('revision')
      .where('deliverable_id', '=', issue.deliverable_id)
      .where('sequence', '>', issue.sequence)
      .executeTakeFirst()
    if (newer)
      throw conflict(`A newer revision (${newer.revision}) was issued; answer that one`, 'superseded')
    await trx
      .insertInto('deliverable_response')
      .values({
        issue_id: issueId,
        contract_id: contract.id,
        outcome: input.outcome,
        comment: input.comment,
        responded_by: caller.userId,
        responded_at: nowIso(),
      })
      .execute()
    const label = `${issue.number} ${issue.revision}`
    await recordAnswer(trx, deps.publicUrl, {
      contract,
      i,
      actorId: caller.userId,
      deliverableId: issue.deliverable_id,
      action: input.outcome,
      label,
      note: input.comment ? `${label}: ${input.comment}` : label,
      move:
        input.outcome === 'revise_and_resubmit' && i.status === 'submitted'
          ? { action: 'request_changes', set: { feedback: `${label}: ${input.comment}` } }
          : undefined,
      kind: kinds[input.outcome],
      comment: input.comment.slice(0, 500),
    })
    return issue.deliverable_id
  })
}
