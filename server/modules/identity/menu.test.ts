import { describe, expect, test } from 'vitest'
import fs from 'node:fs'
import { Role, menu, menuFor, requiresLogin } from './permissions.ts'

// The profile menu and the mobile side menu both render menuFor: every signed-in account reaches
// its dashboard from them, and both sides of a contract reach their reviews (issue 15: /reviews
// was reachable only by typing it).
const links = (roles: number[]) => menuFor(roles).map((m) => m.to)

describe('the signed-in menus', () => {
  test.each([
    ['a client', [Role.Client]],
    ['a company', [Role.Company]],
    ['a freelancer', [Role.Freelancer]],
  ])('%s has the dashboard first, and reviews', (_, roles) => {
    expect(links(roles)[0]).toBe('/dashboard')
    expect(links(roles)).toContain('/reviews')
  })

  test('an administrator has the dashboard but no reviews (no contracts to review)', () => {
    expect(links([Role.SuperAdmin])).toContain('/dashboard')
    expect(links([Role.SuperAdmin])).not.toContain('/reviews')
  })

  test("the money pages are in the menus of those who have money, and the support queue in the administrator's", () => {
    for (const roles of [[Role.Client], [Role.Company], [Role.Freelancer]])
      expect(links(roles)).toEqual(expect.arrayContaining(['/invoices', '/statements']))
    expect(links([Role.Freelancer])).toContain('/payouts')
    expect(links([Role.Client])).not.toContain('/payouts')
    expect(links([Role.SuperAdmin])).toContain('/admin')
    expect(links([Role.Freelancer])).not.toContain('/admin')
  })

  test('every entry leads to a page of the app and is named in the five languages', () => {
    const routes = fs.readFileSync(new URL('../../../app/routes.ts', import.meta.url), 'utf8')
    for (const entry of menu) {
      expect(routes, entry.to).toContain(`route('${entry.to.slice(1)}'`)
      for (const lng of ['en', 'es', 'de', 'it', 'ru']) {
        const auth = JSON.parse(
          fs.readFileSync(new URL(`../../../locales/${lng}/auth.json`, import.meta.url), 'utf8'),
        )
        expect(auth.menu[entry.label.replace('menu.', '')], `${lng} ${entry.label}`).toBeTruthy()
      }
    }
  })

  test('both pages need a signed-in user (docs/product.md §6)', () => {
    expect(requiresLogin('/dashboard')).toBe(true)
    expect(requiresLogin('/reviews')).toBe(true)
  })
})
