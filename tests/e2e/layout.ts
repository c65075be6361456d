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

/** Whether a chip sits inside its card, rather than drawn somewhere else on the page. */
export async function expectInside(inner: Locator, outer: Locator) {
  const [a, b] = await boxes(inner, outer)
  expect(
    a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height,
    'inside its card',
  ).toBe(true)
}

/** A card keeps its content off its edges. */
export const expectPadded = async (card: Locator) =>
  expect(parseFloat(await card.evaluate((e) => getComputedStyle(e).paddingLeft))).toBeGreaterThanOrEqual(8)

/** A radio button is a small circle on the row of its label, not a full-width box above it. */
export async function expectRadioBesideLabel(radio: Locator) {
  const [r, label] = await boxes(radio, radio.locator('xpath=ancestor::label[1]'))
  expect(r.width, 'radio width').toBeLessThan(30)
  expect(r.y + r.height / 2, 'radio on its label row').toBeGreaterThan(label.y)
  expect(r.y + r.height / 2, 'radio on its label row').toBeLessThan(label.y + label.height)
}
