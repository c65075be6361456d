import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../../tests/support/render'
import { ActivityList, InstallmentList } from './installments'
import { clientProjectMoves, installmentMoves } from './moves'

const installment = (position: number, status: string, title = `Part ${position}`) => ({
  id: position,
  position,
  title,
  amountMinor: 50000,
  currency: 'EUR',
  dueDate: null,
  status,
  submissionNote: null,
  feedback: null,
  files: [],
})

describe('Installments: a stepper with each side’s move', () => {
  it('numbers each installment once', async () => {
    const text = textOf(
      await renderHtml(
        <InstallmentList
          items={[installment(1, 'funded', 'Calculation review'), installment(2, 'pending', 'Drawings')]}
          role="client"
          active
        />,
      ),
    )
    expect(text).toContain('Step 1 of 2: Calculation review')
    expect(text).not.toMatch(/\b1\.\s*Calculation review/)
  })

  it('shows the freelancer a pending installment’s state and whose move it is, with no button', async () => {
    const html = await renderHtml(
      <InstallmentList items={[installment(1, 'pending')]} role="freelancer" active />,
    )
    expect(textOf(html)).toContain('Awaiting funding Waiting for the client to fund it')
    expect(html).not.toContain('<button')
  })

  it.each([
    ['client', 'pending', ['Fund']],
    // Approve opens its confirmation step (a summary), whose own button releases the money.
    ['client', 'submitted', ['Approve', 'Yes, release €500.00', 'Ask for changes']],
    ['freelancer', 'funded', ['Submit work']],
    ['freelancer', 'changes_requested', ['Submit work']],
    ['client', 'funded', []],
    ['freelancer', 'submitted', []],
  ] as const)('offers the %s on a %s installment: %j', async (role, state, buttons) => {
    const html = await renderHtml(<InstallmentList items={[installment(1, state)]} role={role} active />)
    const controls = [...html.matchAll(/<(button|summary)[^>]*>([^<]+)<\/\1>/g)].map((m) => m[2])
    expect(controls).toEqual(buttons)
    if (!buttons.length) expect(textOf(html)).toContain('Waiting for')
  })

  it('sends the freelancer to issue, and the client to review, an installment with deliverables in the register', async () => {
    const withDeliverables = (state: string) => ({ ...installment(1, state), deliverables: 2 })
    const freelancer = await renderHtml(
      <InstallmentList items={[withDeliverables('funded')]} role="freelancer" active projectId={7} />,
    )
    expect(freelancer).toMatch(/<a[^>]*href="\/projects\/register\/7"[^>]*>Issue the deliverables<\/a>/)
    expect(freelancer).not.toContain('Submit work')
    const client = await renderHtml(
      <InstallmentList items={[withDeliverables('submitted')]} role="client" active projectId={7} />,
    )
    expect(client).toMatch(/<a[^>]*href="\/projects\/register\/7"[^>]*>Review the deliverables<\/a>/)
    expect(client).not.toContain('Ask for changes')
  })

  it('asks before releasing: the step names the amount and the freelancer, and only its form sends the confirmation', async () => {
    const html = await renderHtml(
      <InstallmentList items={[installment(1, 'submitted')]} role="client" active payee="Ana Ruiz" />,
    )
    expect(textOf(html)).toContain('Release €500.00 to Ana Ruiz?')
    expect(html).toMatch(/<details class="ui-confirm-disclosure"><summary[^>]*>Approve<\/summary>/)
    const release = html.slice(html.indexOf('installment-approve') - 200, html.indexOf('Yes, release'))
    expect(release).toContain('name="confirmed" value="yes"')
    // Asking for changes moves no money: its form acts at once and sends no confirmation.
    const changes = html.slice(html.indexOf('installment-request-changes'))
    expect(changes).not.toContain('name="confirmed"')
  })

  it('offers nothing once the contract has ended', async () => {
    const html = await renderHtml(
      <InstallmentList
        items={[installment(1, 'pending'), installment(2, 'submitted')]}
        role="client"
        active={false}
      />,
    )
    expect(html).not.toContain('<button')
    expect(textOf(html)).not.toContain('Waiting for')
  })
})

describe('The client’s project moves are offered only when they can succeed', () => {
  const contract = (...states: string[]) => ({
    status: 'active',
    installments: states.map((status) => ({ status })),
  })
  it.each([
    [
      'right after Accept (nothing funded)',
      'in_progress',
      contract('pending', 'pending'),
      { complete: false, cancel: true, delete: false },
    ],
    [
      'with work under review',
      'in_progress',
      contract('approved', 'submitted'),
      { complete: false, cancel: false, delete: false },
    ],
    [
      'with every installment approved or paid',
      'in_progress',
      contract('approved', 'released'),
      { complete: true, cancel: false, delete: false },
    ],
    [
      'with every installment paid (a release is not undone by cancelling)',
      'in_progress',
      contract('released', 'released'),
      { complete: true, cancel: false, delete: false },
    ],
    [
      'with one installment paid and the next not yet funded',
      'in_progress',
      contract('released', 'pending'),
      { complete: false, cancel: true, delete: false },
    ],
    [
      'after completion',
      'completed',
      { status: 'completed', installments: [{ status: 'released' }] },
      { complete: false, cancel: false, delete: false },
    ],
    ['while open', 'open', null, { complete: false, cancel: true, delete: true }],
    ['as a draft', 'draft', null, { complete: false, cancel: true, delete: true, publish: true }],
  ] as const)('%s', (_, status, k, expected) => {
    expect(clientProjectMoves({ status, proposalCount: 1 }, k)).toMatchObject(expected)
  })

  it('matches the installment machine for both sides', () => {
    expect(installmentMoves('client', 'approved', true)).toEqual([])
    expect(installmentMoves('freelancer', 'pending', true)).toEqual([])
  })

  it('sends both sides to the register for an installment with deliverables (decision 318)', () => {
    expect(installmentMoves('freelancer', 'funded', true, 2)).toEqual(['installment-issue'])
    expect(installmentMoves('freelancer', 'changes_requested', true, 2)).toEqual(['installment-issue'])
    expect(installmentMoves('client', 'submitted', true, 2)).toEqual([
      'installment-review',
      'installment-approve',
    ])
    expect(installmentMoves('freelancer', 'funded', true, 0)).toEqual(['installment-submit'])
    expect(installmentMoves('client', 'submitted', true, 0)).toEqual([
      'installment-approve',
      'installment-request-changes',
    ])
  })
})

describe('Work screens are built from the design system', () => {
  // The bell's absolutely positioned .badge, the unpadded .card and the one-look .button made the
  // findings of issue 15; a work screen uses StatusChip, Card and Button instead.
  const dir = import.meta.dirname
  const screens = [
    ...fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx'))
      .map((f) => path.join(dir, f)),
    path.join(dir, '../reviews.tsx'),
  ]
  it.each(screens.map((f) => [path.relative(path.join(dir, '..'), f), f]))(
    '%s styles no badge, card or button of its own',
    (_, file) => {
      const source = fs.readFileSync(file, 'utf8')
      expect(source).not.toMatch(/className="[^"]*\bbadge\b/)
      expect(source).not.toMatch(/className="card\b/)
      expect(source).not.toMatch(/className="button\b|className="[^"]*\bbutton-(primary|ghost|accent)\b/)
      expect(source).not.toMatch(/<Status value=/)
    },
  )
})

describe('ActivityList: who did what, in words', () => {
  const item = (entity: string, action: string, note: string | null, actor: string | null) => ({
    id: Math.floor(Math.random() * 1e9),
    entity,
    action,
    toState: '',
    note,
    actor: actor ? { name: actor } : null,
    createdAt: '2026-11-28T10:00:00.000Z',
  })
  it('says why the system closed a proposal instead of showing its code word, in every language', async () => {
    const items = [item('proposal', 'close', 'taken', null), item('proposal', 'close', 'cancelled', null)]
    const en = textOf(await renderHtml(<ActivityList items={items} />))
    expect(en).toContain('Workneer closed a proposal because another freelancer was hired')
    expect(en).toContain('Workneer closed a proposal because the project was cancelled')
    expect(en).not.toMatch(/— (taken|cancelled)/)
    for (const lang of ['es', 'de', 'it', 'ru'])
      expect(textOf(await renderHtml(<ActivityList items={items} />, lang))).not.toMatch(/taken|cancelled/)
  })
  it("names refund steps, says the amount as money in the reader's language, and keeps a person's own words as the note", async () => {
    const items = [
      { ...item('refund', 'request', null, 'Clara Client'), amount: { minor: 15000, currency: 'EUR' } },
      item('refund', 'decline', 'The drainage section is on page 4.', 'Fred Freelancer'),
    ]
    const en = textOf(await renderHtml(<ActivityList items={items} />))
    expect(en).toContain('Clara Client asked for a refund — €150.00')
    expect(en).toContain('Fred Freelancer declined the refund — The drainage section is on page 4.')
    // Decision 321: the server keeps the amount as a fact, not as English money.
    const de = textOf(await renderHtml(<ActivityList items={items} />, 'de'))
    expect(de).toMatch(/Clara Client .+ — 150,00\s€/)
    expect(de).not.toContain('€150.00')
  })
})
