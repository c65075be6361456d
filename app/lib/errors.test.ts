import { describe, expect, it } from 'vitest'
import { createT, type TFunction } from './translator'
import { noticeFor, routeForStatus, validationMessage } from './errors'
import { searchHref } from '../components/shell/search-box'
import { callToAction, topBarVariant } from '../components/shell/top-bar'
import { subscribedNotice } from '../routes/newsletter'

const en: Record<string, string> = {
  'errors.invalidInfo': 'Invalid Info',
  'errors.serverError': 'Server Error',
  'errors.somethingWrong': 'Something went wrong (because of backend)',
  'errors.fallback': 'Seems like something went wrong. please contact your administrator',
  'notFound.title': 'Page not found',
  'notFound.body': 'gone',
  'shell:notices.subscribed': 'Subscribed Successfully!',
  'shell:notices.confirmByMail': 'Please confirm it with the link we have just emailed you.',
}
const t = ((key: string) => en[key] ?? key) as unknown as TFunction

describe('the error catalogue (docs/product.md §8)', () => {
  it('400 joins the validation messages with ".\\n", else the detail, else a string body', () => {
    expect(noticeFor(400, { errors: { a: ['First'], b: ['Second', 'Third'] } }, t)).toEqual({
      title: 'Invalid Info',
      message: 'First.\nSecond.\nThird',
    })
    expect(validationMessage({ detail: 'Only detail', errors: {} }, t)).toBe('Only detail')
    expect(validationMessage('A string body', t)).toBe('A string body')
    expect(validationMessage(null, t)).toBe(en['errors.fallback'])
  })
  it('500 is Server Error, any other status Something went wrong, with the fallback text', () => {
    expect(noticeFor(500, null, t)).toEqual({ title: 'Server Error', message: en['errors.fallback'] })
    expect(noticeFor(418, null, t)).toEqual({
      title: 'Something went wrong (because of backend)',
      message: en['errors.fallback'],
    })
    expect(noticeFor(503, 'x', t).title).toBe('Something went wrong (because of backend)')
  })
  it("429 says how long to wait, in minutes and in the reader's plural, or a few minutes when the wait is unknown", async () => {
    const say = async (lang: string) => {
      const common = (await import(`../../locales/${lang}/common.json`)).default
      return createT({ catalogs: { [lang]: { common } }, lng: lang, ns: 'common' })
    }
    const enT = await say('en')
    expect(noticeFor(429, null, enT, 300)).toEqual({
      title: 'Too many attempts',
      message: 'Please try again in 5 minutes.',
    })
    expect(noticeFor(429, null, enT, 40).message).toBe('Please try again in 1 minute.')
    expect(noticeFor(429, null, enT).message).toBe('Please wait a few minutes and try again.')
    const ruT = await say('ru')
    expect(noticeFor(429, null, ruT, 120).message).toBe('Повторите попытку через 2 минуты.')
    expect(noticeFor(429, null, ruT, 21 * 60).message).toBe('Повторите попытку через 21 минуту.')
    expect(noticeFor(429, null, ruT, 600).message).toBe('Повторите попытку через 10 минут.')
  })
  it('a request refused before any route ran says why, under the catalogue title of its status', () => {
    expect(noticeFor(403, { refusal: 'crossSite' }, t)).toEqual({
      title: 'refusals.crossSiteTitle',
      message: 'refusals.crossSite',
    })
    expect(noticeFor(415, { refusal: 'formType' }, t)).toEqual({
      title: 'Something went wrong (because of backend)',
      message: 'refusals.formType',
    })
    expect(noticeFor(400, { refusal: 'formUnreadable' }, t)).toEqual({
      title: 'Invalid Info',
      message: 'refusals.formUnreadable',
    })
    // Only the three refusals: any other body is read as before.
    expect(noticeFor(400, { refusal: 'other', detail: 'Detail' } as never, t)).toEqual({
      title: 'Invalid Info',
      message: 'Detail',
    })
  })
  it('401 and 402 log out to /, 403 goes to unauthorized, 404 to not-found, the rest are notices', () => {
    expect(routeForStatus(401)).toEqual({ kind: 'logout', to: '/' })
    expect(routeForStatus(402)).toEqual({ kind: 'logout', to: '/' })
    expect(routeForStatus(403)).toEqual({ kind: 'redirect', to: '/auth/unauthorized' })
    expect(routeForStatus(404)).toEqual({ kind: 'redirect', to: '/auth/not-found' })
    expect(routeForStatus(400)).toEqual({ kind: 'notice', status: 400 })
    expect(routeForStatus(500)).toEqual({ kind: 'notice', status: 500 })
  })
})

describe('the shell', () => {
  it('search: Workneer to the freelancer search, Projects to the project list, an empty term kept as all', () => {
    expect(searchHref('workneerer', '')).toBe('/freelancers/freelancersearch?search=all')
    expect(searchHref('workneerer', '   ')).toBe('/freelancers/freelancersearch?search=all')
    expect(searchHref('projects', 'bridge & tunnel')).toBe(
      '/projects/getprojects?search=bridge%20%26%20tunnel',
    )
  })
  it('top bar: Freelancer role gives the freelancer bar, any other signed-in user the client bar', () => {
    const user = (roles: number[]) => ({ id: 1, name: 'A', imageUrl: null, roles })
    expect(topBarVariant(null, '/')).toBe('home')
    expect(topBarVariant(null, '/faq')).toBe('visitor')
    expect(topBarVariant(user([4]), '/')).toBe('freelancer')
    expect(topBarVariant(user([2, 4]), '/faq')).toBe('freelancer')
    expect(topBarVariant(user([2]), '/')).toBe('client')
    expect(topBarVariant(user([3]), '/')).toBe('client')
    expect(topBarVariant(user([1]), '/')).toBe('client')
  })
  it("top bar: its button is one the reader may use (a SuperAdmin's is the admin area, not Create Project)", () => {
    expect(callToAction('freelancer', [4])?.to).toBe('/projects/getprojects')
    expect(callToAction('client', [2])?.to).toBe('/projects/create')
    expect(callToAction('client', [3])?.to).toBe('/projects/create')
    expect(callToAction('client', [1])).toEqual({ to: '/admin', label: 'auth:menu.administration' })
    expect(callToAction('client', [1, 2])?.to).toBe('/projects/create')
  })
  it('newsletter: the exact reply gets a party emoji and the request to confirm by mail, others show as they are', () => {
    const tr = (k: string) => en[k] ?? k
    expect(subscribedNotice('Subscribed Successfully!', tr)).toBe(
      'Subscribed Successfully! 🎉 Please confirm it with the link we have just emailed you.',
    )
    expect(subscribedNotice('Something else', tr)).toBe('Something else')
  })
})
