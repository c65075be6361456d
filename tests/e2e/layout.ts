import { expect, type Locator } from '@playwright/test'

/**
 * The boxes of elements that are compared with each other, read in one task of the page: the page
 * may still be moving (hydration adds the tag input's filter, fonts load), and reads apart saw one
 * element before a shift and the other after it (a radio "above" its own label).
 */
export async function boxes(...elements: Locator[]) {
  const marks = await Promise.all(
    elements.map(async (l, i) => {
      await expect(l).toBeVisible()
      const mark = `m${i}-${Math.random().toString(36).slice(2)}`
      await l.evaluate((e, m) => e.setAttribute('data-measure', m), mark)
      return mark
    }),
  )
  return elements[0].page().evaluate(
    (ms) =>
      ms.map((m) => {
        const r = document.querySelector(`[data-measure="${m}"]`)!.getBoundingClientRect()
        return { x: r.x, y: r.y, width: r.width, height: r.height }
      }),
    marks,
  )
}
