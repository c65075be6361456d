import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { shellApi } from './shell-api'
import { hiredRoom } from './hired-room'

// Issue 39, item 8: no page scrolls sideways on a phone. Every kind of page, a visitor's and a signed-in
// client's and freelancer's, at 320 and 375 px wide in all five languages. The layout is the same
// HTML and CSS with JavaScript off, so this runs once, with it on; the databases do not change it.
test.describe.configure({ mode: 'serial', timeout: 240_000 })
const shell = useShellServer()
const api = shellApi(() => shell().base)
const languages = ['en', 'es', 'de', 'it', 'ru']
const widths = [320, 375]

const visitorPages = [
  '/',
  '/projects/getprojects',
  '/freelancers',
  '/categories',
  '/blogs',
  '/faq',
  '/about-us',
  '/contact-us',
  '/auth/login',
  '/auth/gotosign',
  '/auth/forgot-password',
  '/auth/terms-and-conditions',
]
const clientPages = (projectId: number, roomId: number) => [
  '/dashboard',
  '/projects/client',
  `/projects/client/details/${projectId}`,
  '/projects/create',
  '/profile/account-settings',
  '/chats',
  `/chats/${roomId}`,
  '/notifications',
  '/notifications/settings',
  '/statements',
  '/invoices',
  '/ticketSupport/addComplaints',
  '/offers',
]
const freelancerPages = (projectId: number) => [
  '/dashboard',
  '/projects/getprojects',
  `/projects/freelancer/contract/${projectId}`,
  '/projects/freelancer/porposals',
  '/projects/invitations',
  '/offers',
  '/profile',
  // A section's form open (decision 312): the employment form's rows of fields.
  '/profile?edit=experience',
  '/payouts',
]

/** How far the page reaches past the screen's right edge, and the widest of what sticks out. */
async function overflowOf(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const extra = document.documentElement.scrollWidth - width
    if (extra <= 0) return null
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5)
      .map((e) => {
        const name = e.tagName.toLowerCase() + (e.className ? `.${String(e.className).split(' ')[0]}` : '')
        return `${name} (${Math.round(e.getBoundingClientRect().right - width)} px)`
      })
    return `+${extra} px: ${out.slice(0, 4).join(', ')}`
  })
}

async function sweep(browser: Browser, paths: string[], email?: string) {
  const found: string[] = []
  const page = email
    ? await signInAs(browser, shell().base, email)
    : await (await browser.newContext()).newPage()
  for (const width of widths) {
    await page.setViewportSize({ width, height: 740 })
    for (const lang of languages) {
      await page.context().addCookies([{ name: 'lang', value: lang, url: shell().base }])
      for (const path of paths) {
        const answer = await page.goto(`${shell().base}${path}`)
        expect(answer?.status(), path).toBe(200)
        const overflow = await overflowOf(page)
        if (overflow) found.push(`${width} px, ${lang}, ${path}: ${overflow}`)
      }
    }
  }
  await page.context().close()
  return found
}

test('a visitor never scrolls sideways at 320 or 375 px, in any language @needs-js', async ({ browser }) => {
  expect(await sweep(browser, visitorPages)).toEqual([])
})

test('a client and a freelancer never scroll sideways at 320 or 375 px, in any language @needs-js', async ({
  browser,
}) => {
  const { projectId, roomId } = await hiredRoom(shell, api, 'overflow')
  const found = [
    ...(await sweep(browser, clientPages(projectId, roomId), accounts.client.email)),
    ...(await sweep(browser, freelancerPages(projectId), accounts.freelancer.email)),
  ]
  expect(found).toEqual([])
})
