import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../../tests/support/render'
import { adminActionNames } from '#server/modules/complaints/audit.ts'
import type { AuditEntry } from '#server/modules/complaints/contract.ts'
import { AuditTimeline } from './audit-ui'

// The admin audit in words (issue 39 item 4, decision 321): every action reads as words whatever it
// was done to, never as its stored name ("decide_dispute"), and a row's facts (a dispute's amounts)
// are money in the reader's language beside the admin's own reason.
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: Math.floor(Math.random() * 1e9),
  actor: { id: 1, name: 'Sam Support' } as AuditEntry['actor'],
  action: 'reply',
  objectType: 'complaint',
  objectId: 7,
  fromState: null,
  toState: null,
  reason: null,
  params: null,
  at: '2026-11-28T10:00:00.000Z',
  ...over,
})

describe('the admin audit in words', () => {
  it.each(['en', 'es', 'de', 'it', 'ru'])(
    'names every action in words on a ticket and elsewhere, in %s',
    async (lng) => {
      const entries = adminActionNames.flatMap((action) => [
        entry({ action, objectType: 'complaint' }),
        entry({ action, objectType: 'user' }),
      ])
      const text = textOf(await renderHtml(<AuditTimeline entries={entries} empty="" />, lng))
      expect(adminActionNames.filter((a) => text.includes(a) && /[_.]/.test(a))).toEqual([])
      expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/)
    },
  )

  it("says a dispute's decision as money in the reader's language, then the admin's reason", async () => {
    const decided = entry({
      action: 'decide_dispute',
      toState: 'resolved',
      fromState: 'open',
      reason: 'The second wall is missing.',
      params: { outcome: 'split', refundMinor: 40000, releaseMinor: 60000, currency: 'EUR' },
    })
    const held = entry({ action: 'hold_money', params: { installmentId: 12 } })
    const en = textOf(await renderHtml(<AuditTimeline entries={[decided, held]} empty="" />))
    expect(en).toContain(
      'decided the dispute (Open → Resolved) — €400.00 refunded to the client, €600.00 released to the freelancer — The second wall is missing.',
    )
    expect(en).toContain('installment #12')
    const de = textOf(await renderHtml(<AuditTimeline entries={[decided]} empty="" />, 'de'))
    expect(de).toMatch(/400,00\s€ an den Auftraggeber erstattet, 600,00\s€ an den Freelancer freigegeben/)
    expect(de).not.toMatch(/split|€400\.00/)
  })
})
