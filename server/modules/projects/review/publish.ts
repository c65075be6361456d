import type { Caller } from '#server/api/handler.ts'
import type { ProjectState } from '../machines.ts'
import { limits } from '../rules.ts'
import { notify, transitionProject, type Trx } from '../transition.ts'
import { nowIso } from '../shared.ts'
import { catches } from './rule.ts'

// Publishing a project: the checks every publish passes, and the step that either opens the
// project or sends it to the review queue when the review rule catches it (decision 339).

/** Why a project cannot be published yet, or null when it can. */
export function publishGuard(row: {
  title: string
  description: string
  subcategory_id: number | null
  budget_minor: number
}) {
  if (row.title.trim().length < limits.title.min || row.description.trim().length < limits.description.min)
    return 'A project needs a title and a description before it is published'
  if (!row.subcategory_id) return 'Choose a subcategory before publishing'
  if (row.budget_minor <= 0) return 'Set a budget before publishing'
  return null
}

type Publishable = Parameters<typeof publishGuard>[0] & {
  id: number
  client_id: number
  category_id: number | null
}

/**
 * The client's publish: straight to open, or to the review queue when the rule catches the
 * project. The guard is the same either way; the answer is the state the project is now in.
 */
export async function publishOrSubmit(
  trx: Trx,
  caller: Caller,
  current: ProjectState,
  row: Publishable,
): Promise<ProjectState> {
  const base = {
    id: row.id,
    current,
    actor: 'client' as const,
    actorId: caller.userId,
    projectId: row.id,
    guard: () => publishGuard(row),
  }
  if (!(await catches(trx, row)))
    return transitionProject(trx, {
      ...base,
      action: 'publish',
      set: { published_at: nowIso(), review_reason: null, review_submitted_at: null },
    })
  return transitionProject(trx, {
    ...base,
    action: 'submit_for_review',
    set: { review_submitted_at: nowIso() },
    effects: [notify([row.client_id], 'projectInReview', row.id, 'ProjectStatus', { title: row.title })],
  })
}
