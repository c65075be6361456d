import { describe, expect, test } from 'vitest'
import { SIGNED_IN_HOME, redirectTarget } from './session.server'

// Where signing in lands (password form, provider callback, a signed-in visit to the login page):
// the page that asked for it, otherwise the dashboard; never the marketing home page, never off-site.
const at = (query: string) => new URL(`http://127.0.0.1/auth/login${query}`)

describe('the landing after signing in', () => {
  test('is the dashboard when no page asked', () => {
    expect(SIGNED_IN_HOME).toBe('/dashboard')
    expect(redirectTarget(at(''))).toBe('/dashboard')
    expect(redirectTarget(at('?redirectTo='))).toBe('/dashboard')
  })

  test.each(['/profile/account-settings', '/projects/client/details/7?tab=proposals', '/reviews'])(
    'is %s when that page asked',
    (to) => {
      expect(redirectTarget(at(`?redirectTo=${encodeURIComponent(to)}`))).toBe(to)
      expect(redirectTarget(at(''), to)).toBe(to)
    },
  )

  test.each(['//evil.example', 'https://evil.example/', '/\\evil.example'])(
    'is the dashboard, not %s',
    (to) => {
      expect(redirectTarget(at(`?redirectTo=${encodeURIComponent(to)}`))).toBe('/dashboard')
    },
  )
})
