import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { supportedLanguages } from '~/lib/i18n'
import { localeText, renderHtml, textOf } from '../../../tests/support/render'
import { ButtonGroup, ActionForm, ButtonLink, Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { Person } from '~/components/ui/person'
import { Progress } from '~/components/ui/progress'
import { SectionNav } from '~/components/ui/section-nav'
import { StatusChip } from '~/components/ui/status-chip'
import { Stepper } from '~/components/ui/stepper'
import { TagInput } from '~/components/ui/tag-input'
import { machineStates, stateTones, type Machine } from '~/components/ui/tones'

const css = ['ui.css', 'app.css']
  .map((f) =>
    fs
      .readFileSync(path.resolve(import.meta.dirname, '../../styles', f), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ''),
  )
  .join('\n')
/** A rule's selectors (commas inside :not() and :is() do not split). */
const selectorsOf = (list: string) => list.split(/,(?![^(]*\))/).map((s) => s.trim())
const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].map((m) => ({
  selectors: selectorsOf(m[1]),
  body: m[2],
}))
/** The declarations of every rule whose selector list contains `selector` exactly. */
const rulesFor = (selector: string) => rules.filter((r) => r.selectors.includes(selector)).map((r) => r.body)

const machines = Object.keys(machineStates) as Machine[]

describe('StatusChip: one tone and one word per state of every state machine', () => {
  it.each(machines.flatMap((m) => machineStates[m].map((s) => [m, s] as const)))(
    '%s %s has a tone and a label in every language',
    async (machine, state) => {
      expect(stateTones[machine]).toHaveProperty(state)
      for (const lng of supportedLanguages) {
        const label = ((localeText(lng, 'ui').status as Record<string, Record<string, string>>)[machine] ??
          {})[state]
        expect(label, `${lng} ${machine}.${state}`).toBeTruthy()
        const html = await renderHtml(<StatusChip machine={machine} state={state} />, lng)
        // Text, not colour alone: the word is in the chip, and the chip is styled by its tone.
        expect(textOf(html)).toBe(label)
        expect(html).toContain(`ui-tone-${stateTones[machine][state as never]}`)
      }
    },
  )

  it('is drawn in the flow of the text, never positioned like the bell badge', () => {
    const chip = rulesFor('.ui-chip').join(';')
    expect(chip).toContain('display: inline-flex')
    expect(chip).not.toMatch(/position\s*:/)
  })
})

describe('Buttons: primary, secondary and destructive look different and sit apart', () => {
  it('gives each variant its own class, on buttons, links and one-button forms', async () => {
    const html = await renderHtml(
      <ButtonGroup label="g">
        <Button variant="primary">P</Button>
        <ButtonLink to="/x">S</ButtonLink>
        <ActionForm intent="delete" label="D" variant="destructive" />
      </ButtonGroup>,
    )
    expect(html).toMatch(/class="ui-button ui-button-primary"[^>]*>P</)
    expect(html).toMatch(/class="ui-button ui-button-secondary"[^>]*>S</)
    expect(html).toMatch(
      /<input type="hidden" name="intent" value="delete"\/><button type="submit" class="ui-button ui-button-destructive"/,
    )
    for (const v of ['primary', 'secondary', 'destructive'])
      expect(rulesFor(`.ui-button-${v}`).join(';')).toMatch(/color:/)
    expect(rulesFor('.ui-button-destructive').join(';')).toContain('var(--color-danger)')
    expect(rulesFor('.ui-button-group').join(';')).toMatch(/gap:/)
  })
})

describe('Card and definition list', () => {
  it('pads its content and leaves out empty facts', async () => {
    expect(rulesFor('.ui-card').join(';')).toMatch(/padding:\s*var\(--space-4\)/)
    const html = await renderHtml(
      <Card title="T" titleId="t" status={<StatusChip machine="contract" state="active" />}>
        <DefinitionList
          items={[
            ['Price', '€10'],
            ['None', null],
            ['Zero', 0],
          ]}
        />
      </Card>,
    )
    expect(textOf(html)).toBe('T Active Price €10 Zero 0')
    expect(html).toContain('aria-labelledby="t"')
  })
})

describe('Radios and checkboxes keep their size beside their label', () => {
  it('the full-width rule of .field inputs leaves radio and checkbox out', () => {
    const wide = rules.filter((r) => /(^|[;\s])width:\s*100%/.test(r.body)).flatMap((r) => r.selectors)
    const fieldInputs = wide.filter((s) => /\.field input/.test(s))
    expect(fieldInputs.length).toBeGreaterThan(0)
    for (const s of fieldInputs)
      expect(s).toMatch(/:not\([^)]*radio[^)]*checkbox|:not\([^)]*checkbox[^)]*radio/)
  })
})

describe('Stepper: numbered once, with the move the viewer can make now', () => {
  it('puts the number in the marker only and says whose move it is', async () => {
    const html = await renderHtml(
      <Stepper
        label="Installments"
        steps={[
          { key: 1, title: 'Calculation review', state: 'funded', waiting: 'Waiting for the freelancer' },
          { key: 2, title: 'Drawings', state: 'pending', actions: <Button>Fund</Button> },
        ]}
      />,
    )
    const text = textOf(html)
    expect(text).toContain('Step 1 of 2: Calculation review Funded Waiting for the freelancer')
    expect(text).toContain('Step 2 of 2: Drawings Awaiting funding Your move Fund')
    expect(text).not.toMatch(/1\.\s*1\./)
    expect(rulesFor('.ui-stepper').join(';')).toContain('list-style: none')
  })
})

describe('Person: avatar, name as a profile link, rating', () => {
  it.each(supportedLanguages)('links the name and shows the rating in %s', async (lng) => {
    const html = await renderHtml(
      <Person name="Fred" href="/profiles/freelancers/7" rating={{ value: 4.56, count: 3 }} />,
      lng,
    )
    expect(html).toMatch(/<a[^>]*href="\/profiles\/freelancers\/7"[^>]*>Fred<\/a>/)
    expect(textOf(html)).toMatch(/4[.,]6/)
    expect(textOf(html)).toContain('3')
    const none = await renderHtml(<Person name="Nina" rating={{ value: 0, count: 0 }} />, lng)
    expect(textOf(none)).toContain((localeText(lng, 'ui').rating as Record<string, string>).none)
  })
})

describe('TagInput without JavaScript', () => {
  it('is a fieldset of checkboxes that submit the chosen values', async () => {
    const html = await renderHtml(
      <TagInput
        name="skillIds"
        legend="Skills"
        options={[
          { id: 1, name: 'Revit' },
          { id: 2, name: 'AutoCAD' },
        ]}
        selected={[2]}
      />,
    )
    expect(html).toContain('<legend>Skills</legend>')
    expect(html).toMatch(/<input type="checkbox" name="skillIds" value="1"\/>/)
    expect(html).toMatch(
      /<input type="checkbox" name="skillIds" (checked="" value="2"|value="2" checked="")\/>/,
    )
    // The enhancement (tags and a filter box) comes only after hydration.
    expect(html).not.toContain('type="search"')
  })

  it("shows the field's error under the legend and names it as the fieldset's description", async () => {
    const html = await renderHtml(
      <TagInput
        name="skillIds"
        legend="Skills"
        options={[{ id: 1, name: 'Revit' }]}
        error="Choose at most 25."
      />,
    )
    const described = html.match(/<fieldset[^>]*aria-describedby="([^"]+)"/)![1]
    expect(html).toMatch(new RegExp(`<p class="field-error" id="${described}">Choose at most 25.</p>`))
  })
})

describe('SectionNav and Progress', () => {
  it("lists a page's sections as anchors, with what is missing written out", async () => {
    const html = await renderHtml(
      <SectionNav
        label="Profile sections"
        items={[
          { href: '#rates', label: 'Rate and availability', note: 'to add' },
          { href: '#about', label: 'About me' },
        ]}
      />,
    )
    expect(html).toMatch(/^<nav class="ui-section-nav" aria-label="Profile sections">/)
    expect(textOf(html)).toBe('Rate and availability to add About me')
    expect(html).toContain('href="#rates"')
  })

  it('writes the percentage beside the meter', async () => {
    const html = await renderHtml(<Progress percent={40} text="40% complete" labelledBy="done-title" />)
    expect(html).toContain(
      '<meter min="0" max="100" low="50" high="99" optimum="100" value="40" aria-labelledby="done-title"></meter>',
    )
    expect(textOf(html)).toBe('40% complete')
  })
})

describe('Pagination and notices', () => {
  it('keeps the other parameters and says where the reader is', async () => {
    const html = await renderHtml(
      <Pagination url="/projects/client?status=open&page=2" page={2} pageSize={20} total={45} />,
    )
    expect(html).toContain('href="/projects/client?status=open&amp;page=1"')
    expect(html).toContain('href="/projects/client?status=open&amp;page=3"')
    expect(textOf(html)).toContain('Page 2 of 3')
    expect(await renderHtml(<Pagination url="/x" page={1} pageSize={20} total={20} />)).toBe('')
  })

  it('announces errors as alerts and successes as status', async () => {
    expect(await renderHtml(<Notice kind="error">No</Notice>)).toContain('role="alert"')
    expect(await renderHtml(<Notice kind="success">Yes</Notice>)).toContain('role="status"')
  })
})
