import { expect, test } from '@playwright/test'
import { boxes } from './layout'

// Issue 15's findings in the Categories mega-menu, in every language, with JavaScript on and off:
// "All categories" is shown whole below the list (it was cut off by the panel's 400 px), and each
// category's link lists that category alone ("Engineering" also listed Construction Economics).
const allCategories = {
  en: 'All categories',
  es: 'Todas las categorías',
  de: 'Alle Kategorien',
  it: 'Tutte le categorie',
  ru: 'Все категории',
} as const

for (const [lng, label] of Object.entries(allCategories)) {
  test(`${lng}: "All categories" is whole below the list, each category opens alone`, async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'lang', value: lng, url: baseURL! }])
    await page.goto('/about-us')
    const menu = page.locator('details.megamenu')
    await menu.locator('summary').click()
    const all = menu.getByRole('link', { name: label })
    const [panel, list, link] = await boxes(
      menu.locator('.megamenu-panel'),
      menu.locator('.megamenu-list'),
      all,
    )
    expect(panel.height).toBeLessThanOrEqual(400)
    expect(panel.width).toBeLessThanOrEqual(385)
    // Inside the panel, entirely, and below the list rather than scrolled inside it.
    expect(link.y).toBeGreaterThanOrEqual(list.y + list.height - 0.5)
    expect(link.y + link.height).toBeLessThanOrEqual(panel.y + panel.height + 0.5)
    await expect(all).toHaveAttribute('href', '/categories')

    const items = menu.locator('.megamenu-item')
    const categories = await Promise.all(
      (await items.all()).map(async (item) => ({
        name: (await item.innerText()).trim(),
        href: (await item.getAttribute('href'))!,
      })),
    )
    expect(categories).toHaveLength(6)
    for (const category of categories) {
      await page.goto(category.href)
      await expect(page.locator('.area h2'), `${lng}: ${category.name}`).toHaveText([category.name])
    }
  })
}
