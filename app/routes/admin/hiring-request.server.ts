import { parseWithZod } from '@conform-to/zod/v4'
import { proposalInput } from '#server/modules/hiring/contract.ts'

// Support's proposal form lists candidates with a box to tick and a note each; only the ticked rows
// are the proposal. They are numbered again before the API's own schema reads them (decision 338).
const ROW = /^freelancers\[(\d+)\]\.(userId|note)$/

export function parseProposal(form: FormData) {
  const rows = new Map<number, { userId?: string; note?: string }>()
  for (const [key, value] of form.entries()) {
    const m = ROW.exec(key)
    if (!m || typeof value !== 'string') continue
    const row = rows.get(Number(m[1])) ?? {}
    row[m[2] as 'userId' | 'note'] = value
    rows.set(Number(m[1]), row)
  }
  const picked = new FormData()
  let n = 0
  for (const [, row] of [...rows].sort(([a], [b]) => a - b)) {
    if (!row.userId) continue
    picked.set(`freelancers[${n}].userId`, row.userId)
    picked.set(`freelancers[${n}].note`, row.note ?? '')
    n++
  }
  return parseWithZod(picked, { schema: proposalInput })
}

/** The first message of a refused proposal, whichever field it is on. */
export function firstError(errors: Record<string, string[] | null> | undefined | null) {
  for (const messages of Object.values(errors ?? {})) if (messages?.[0]) return messages[0]
  return 'shortlist:hiring.errors.pickOne'
}
