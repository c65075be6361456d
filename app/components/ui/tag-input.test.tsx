import { describe, expect, it } from 'vitest'
import { renderHtml } from '../../../tests/support/render'
import { TagInput } from './tag-input'

// Issue 39 (item 11): with JavaScript the list is one Tab stop (tests/e2e/skill-picker.spec.ts);
// the page a browser without it gets must keep every box its own Tab stop and field.
describe('the tag input without JavaScript', () => {
  it('is a list of plain checkboxes, none taken out of the Tab order', async () => {
    const html = await renderHtml(
      <TagInput
        name="skillIds"
        legend="Skills"
        options={[
          { id: 1, name: 'Structural analysis' },
          { id: 2, name: 'Reinforced concrete design' },
        ]}
        selected={['2']}
      />,
    )
    expect(html.match(/type="checkbox"/g)).toHaveLength(2)
    expect(html).not.toMatch(/tabindex/i)
    expect(html).toMatch(/<input(?=[^>]*value="2")(?=[^>]*checked)[^>]*>/)
  })
})
