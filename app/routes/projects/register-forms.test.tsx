import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { schemaConstraint } from '~/lib/schema-constraint.server'
import { renderHtml, textOf } from '../../../tests/support/render'
import { replyFields } from '~/components/ui/reply-form'
import {
  answerInput,
  deliverableInput,
  issueInput,
  transmittalInput,
} from '#server/modules/projects/deliverables/schemas.ts'
import { deliverableLimits } from '#server/modules/projects/deliverables/rules.ts'
import { SelectField, TextInput } from './register-ui'
import { IssueManyForm } from './register-issue'

// The register's forms (decision 318) render their action's reply through the reply helpers, as
// every reply-rendered form does (decision 317): useReplyForm holds live reloads while a reply is on
// screen, and the limits are the schema's, sent by the loader, never numbers written in the page.

const dir = import.meta.dirname
const screens = ['register.tsx', 'register-issue.tsx', 'deliverable.tsx']

describe("The register's forms hold live reloads and take their limits from the schema", () => {
  it.each(screens)('%s renders replies through the reply helpers, with no limit of its own', (file) => {
    const source = fs.readFileSync(path.join(dir, file), 'utf8')
    expect(source).toMatch(/useReplyForm\(/)
    expect(source).toMatch(/replyFields\(/)
    // The field that kept its own reply rendering, and limits written as numbers.
    expect(source).not.toMatch(/import \{[^}]*\bTextField\b[^}]*\} from '~\/components\/ui\/field'/)
    expect(source).not.toMatch(/(maxLength|minLength|max|min)=\{\d+\}/)
  })

  it("the add form's fields carry the deliverable schema's limits", async () => {
    const fields = replyFields(undefined, 'add', {}, schemaConstraint(deliverableInput))
    const html = await renderHtml(
      <>
        <TextInput field={fields.number!} label="Number" />
        <TextInput field={fields.title!} label="Title" />
        <TextInput field={fields.discipline!} label="Discipline" />
      </>,
    )
    for (const [name, max] of [
      ['number', deliverableLimits.number],
      ['title', deliverableLimits.title],
      ['discipline', deliverableLimits.discipline],
    ] as const)
      expect(html).toMatch(
        new RegExp(
          `<input[^>]*id="add-${name}"[^>]*maxLength="${max}"|<input[^>]*maxLength="${max}"[^>]*id="add-${name}"`,
          'i',
        ),
      )
  })

  it("the issue and answer forms' notes and comments are limited by their schemas", async () => {
    const issue = replyFields(undefined, 'issue', {}, schemaConstraint(issueInput))
    const answer = replyFields(undefined, 'answer', {}, schemaConstraint(answerInput))
    const html = await renderHtml(
      <>
        <TextInput field={issue.note!} label="Note" rows={4} />
        <TextInput field={answer.comment!} label="Comments" rows={4} />
        <SelectField
          field={issue.status!}
          label="Status"
          options={[{ value: 'for_comment', label: 'For comment' }]}
        />
      </>,
    )
    expect(html.match(/maxLength="4000"/gi)).toHaveLength(2)
    expect(html).toMatch(/<select[^>]*required/)
  })

  it('the form that issues several deliverables shows each row, its error and the schema’s limits', async () => {
    const reply = {
      initialValue: {
        installmentId: '7',
        note: '',
        items: [{ deliverableId: '1' }, { deliverableId: '2', revision: 'P01' }],
      },
      error: { items: ['deliverables:errors.chooseSome'], note: ['deliverables:errors.required'] },
    }
    const html = await renderHtml(
      <IssueManyForm
        installment={{ id: 7, title: 'Design', status: 'funded' }}
        deliverables={[
          { id: 1, number: 'S-101', title: 'General arrangement', nextRevisions: ['P01', 'C01'] },
          { id: 2, number: 'S-102', title: 'Sections', nextRevisions: ['P01', 'C01'] },
          { id: 3, number: 'S-103', title: 'Approved', nextRevisions: [] },
        ]}
        reply={reply}
        constraint={schemaConstraint(transmittalInput)}
      />,
    )
    const text = textOf(html)
    expect(text).toContain('Issue deliverables of Design')
    expect(text).toContain('Choose a revision for at least one deliverable.')
    expect(text).toContain('Please fill this in.')
    expect(html).toContain('name="items[0].revision"')
    expect(html).toContain('name="items[1].revision"')
    expect(html).not.toContain('name="items[2].revision"')
    // The second row keeps its choice; "not this time" is a choice, so the row is not required.
    expect(html).toMatch(/<option value="P01" selected="">P01<\/option>/)
    expect(html).not.toMatch(/name="items\[0\]\.revision"[^>]*required/)
    expect(html).toMatch(/maxLength="4000"/i)
  })
})
