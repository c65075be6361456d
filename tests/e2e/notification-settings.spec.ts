import { expect, test } from '@playwright/test'
import { mailSettings } from '#server/modules/notifications/notice-mails.ts'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'

// Notification settings end to end (issue 42 item 1, decision 329), JavaScript on and off: the
// settings page saves each kind's channels, and the link at the foot of a notice mail stops that
// kind's mails without signing in, while a tampered link changes nothing (400 to a mail client's
// one-click POST, decision 340). The newsletter is a kind with an email box only.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const shell = useShellServer()

const userId = async (email: string) =>
  (
    await shell()
      .db.db.selectFrom('app_user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id
const stored = async (id: number) =>
  (
    await shell()
      .db.db.selectFrom('notification_preference')
      .select(['kind', 'channel', 'enabled'])
      .where('user_id', '=', id)
      .execute()
  )
    // Push is off until turned on (decision 337): its unticked boxes are not changes.
    .filter((r) => r.enabled === 0 && r.channel !== 'push')
    .map((r) => `${r.kind}.${r.channel}`)
    .sort()

test('the settings page turns a kind off in the site or by email, and keeps the rest', async ({
  browser,
}) => {
  const id = await userId(accounts.company.email)
  await shell().db.db.deleteFrom('notification_preference').where('user_id', '=', id).execute()
  const page = await signInAs(browser, shell().base, accounts.company.email)
  await page.goto(`${shell().base}/notifications`)
  await page.locator('main').getByRole('link', { name: 'Notification settings' }).click()
  await expect(page).toHaveURL(`${shell().base}/notifications/settings`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Notification settings')
  const box = (name: string) => page.getByRole('checkbox', { name })
  await expect(box('Proposals and questions: by email')).toBeChecked()
  await expect(box('Chat messages: in Workneer')).toBeChecked()
  await expect(box('Newsletter: by email')).not.toBeChecked()
  await expect(box('Newsletter: in Workneer')).toHaveCount(0)
  await expectNoAxeViolations(page)
  await box('Proposals and questions: by email').uncheck()
  await box('Chat messages: in Workneer').uncheck()
  await box('Newsletter: by email').check()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page).toHaveURL(`${shell().base}/notifications/settings?saved=1`)
  await expect(page.locator('main').getByRole('status').first()).toContainText(
    'Your notification settings are saved.',
  )
  await expect(box('Proposals and questions: by email')).not.toBeChecked()
  await expect(box('Chat messages: in Workneer')).not.toBeChecked()
  await expect(box('Payments and payouts: by email')).toBeChecked()
  expect(await stored(id)).toEqual(['chat.site', 'proposals.email'])
  await expect(box('Newsletter: by email')).toBeChecked()
  const subscribed = await shell()
    .db.db.selectFrom('newsletter_subscriber')
    .select('unsubscribed_at')
    .where('email', '=', accounts.company.email)
    .executeTakeFirst()
  expect(subscribed).toEqual({ unsubscribed_at: null })
  await page.context().close()
})

test("a notice mail's link stops that kind's mails without signing in; a tampered one changes nothing", async ({
  page,
}) => {
  const id = await userId(accounts.freelancer.email)
  await shell().db.db.deleteFrom('notification_preference').where('user_id', '=', id).execute()
  const settings = await mailSettings(shell().db.db, shell().base, id, 'money', 'en')
  const link = settings.links[0]!.href
  expect(link).toMatch(/\/emails\/stop\/\d+\/money\/[\w-]{43}$/)

  const tampered = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
  await page.goto(tampered)
  await page.getByRole('button', { name: 'Stop these emails' }).click()
  await expect(page.locator('main').getByRole('alert')).toContainText('This link is not valid')
  const oneClick = await page.request.post(tampered, { form: { 'List-Unsubscribe': 'One-Click' } })
  expect(oneClick.status()).toBe(400)
  expect(await stored(id)).toEqual([])

  await page.goto(link)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stop emails about “Payments and payouts”')
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Stop these emails' }).click()
  await expect(page.locator('main').getByRole('status').first()).toContainText(
    'Done: you will get no more emails about “Payments and payouts”.',
  )
  expect(await stored(id)).toEqual(['money.email'])
})
