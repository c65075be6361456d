import { describe, expect, test } from 'vitest'
import { safeRedirect } from './permissions.ts'

// The one decision on where `redirectTo` may lead (issue 14, item 2): whatever the input, the answer
// is a local path that a browser resolves to this site, or the fallback.
const base = 'https://workneer.example'

/** Where a browser goes with `Location: value` from a page of this site. */
const browserTarget = (value: string) => new URL(value, `${base}/auth/login`)

describe('safeRedirect', () => {
  test.each([
    // What the attack used: the string starts with one slash, but its normalised form has two.
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/a/..//evil.example',
    '/a/b/../..//evil.example',
    '/./\\evil.example',
    // Hosts and schemes.
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'https:evil.example',
    'http:/evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    '',
    ' /x',
    // Tabs and newlines vanish when a browser parses a URL.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/.\t//evil.example',
    // Credentials.
    '//user:pass@evil.example',
  ])('refuses %j', (input) => {
    expect(safeRedirect(input)).toBe('/')
    expect(safeRedirect(input, '/home')).toBe('/home')
  })

  test('refuses a target too long to be a page of the site', () => {
    expect(safeRedirect(`/${'a'.repeat(3000)}`)).toBe('/')
  })

  test.each([
    [undefined, '/'],
    [null, '/'],
    [42, '/'],
    [['/x'], '/'],
  ])('refuses what is not a string (%j)', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected)
  })

  test.each([
    ['/', '/'],
    ['/projects', '/projects'],
    ['/projects/details/7?tab=files#top', '/projects/details/7?tab=files#top'],
    ['/a/./b/../c', '/a/c'],
    ['/%2e%2e/projects', '/projects'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/freelancers?search=caf\u00e9', '/freelancers?search=caf%C3%A9'],
    ['/bl\u00f6gs', '/bl%C3%B6gs'],
    ['/a\\b', '/a/b'],
    ['/x?next=//evil.example', '/x?next=//evil.example'],
    // Unicode that looks like a dot or a slash is neither: it stays an escaped local path.
    ['/\u3002/evil.example/..//x', '/%E3%80%82//x'],
    ['/\u2215\u2215evil.example', '/%E2%88%95%E2%88%95evil.example'],
    ['/%', '/%'],
  ])('keeps the local path %j as %j, exactly as checked', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected)
  })

  test('whatever it answers, a browser stays on the site and reads the answer unchanged', () => {
    const pieces = [
      '/',
      '//',
      '\\',
      '.',
      '..',
      '%2e',
      '%2f',
      '%5c',
      '\t',
      '\n',
      'evil.example',
      'a',
      '?',
      '#',
      ':',
      '@',
      '\u3002',
      '\u2215',
    ]
    const inputs: string[] = []
    for (const a of pieces) for (const b of pieces) for (const c of pieces) inputs.push(`/${a}${b}${c}`)
    for (const input of inputs) {
      const answer = safeRedirect(input)
      const target = browserTarget(answer)
      expect(target.origin, input).toBe(base)
      expect(target.pathname + target.search + target.hash, input).toBe(answer)
    }
  })
})
