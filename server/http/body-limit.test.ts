import { describe, expect, it } from 'vitest'
import { bodyLimit, FORM_LIMIT, routePath } from './body-limit.ts'

const multipart = 'multipart/form-data; boundary=x'

// A page's upload form is posted to the page's path without JavaScript and to the same path with
// `.data` once the page is hydrated: both must get the route's upload limit, not the form limit
// (with `.data` a 900 KB image on a project page was refused 413 before the page could say why).
describe('page body limits', () => {
  const uploadPages = [
    '/profile',
    '/projects/create',
    '/projects/client/details/7',
    '/projects/details/7',
    '/projects/client/edit/7',
    '/projects/freelancer/contract/7',
  ]
  it.each(uploadPages.flatMap((p) => [p, `${p}.data`, `${p}.data?index`]))('%s takes an upload', (path) => {
    const limit = bodyLimit('pages', path, multipart)
    expect(limit?.kind).toBe('upload')
    expect(limit!.bytes).toBeGreaterThan(FORM_LIMIT)
  })

  it.each(['/set-language', '/newsletter.data', '/contact-us', '/_root.data', '/projects/7.data'])(
    '%s takes a form only',
    (path) => {
      expect(bodyLimit('pages', path, multipart)).toEqual({ kind: 'form', bytes: FORM_LIMIT })
    },
  )

  it('names the route of a single-fetch path', () => {
    expect(routePath('/_root.data')).toBe('/')
    expect(routePath('/projects/details/7.data')).toBe('/projects/details/7')
    expect(routePath('/projects/details/7.data?index')).toBe('/projects/details/7')
    expect(routePath('/profile')).toBe('/profile')
  })
})
