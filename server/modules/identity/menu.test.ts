import { describe, expect, test } from 'vitest'
import { Role, menuFor, requiresLogin } from './permissions.ts'

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

  test('both pages need a signed-in user (SPEC §6)', () => {
    expect(requiresLogin('/dashboard')).toBe(true)
    expect(requiresLogin('/reviews')).toBe(true)
  })
})
