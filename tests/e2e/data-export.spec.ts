import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { writeAccounts, type Account } from '../support/accounts.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'

// A person downloads their data (issue 42 item 2, decision 331), JavaScript on and off: they ask on
// the account settings, the mail's link (real SMTP) downloads a ZIP holding what was planted in
// their name and nothing planted in another account's, and the section then shows until when.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
test.beforeAll(async () => void (smtp = await startSmtpServer()))
test.afterAll(async () => smtp?.close())
const shell = useShellServer(() => ({ SMTP_URL: smtp.url }))
const main = (page: Page) => page.locator('main')
const SETTINGS = '/profile/account-settings'

/** A new client, active and verified, as the shell's accounts are written; their phone is a marker. */
async function newClient(email: string, phone: string) {
  const account: Account = {
    email,
    firstName: 'Dana',
    lastName: 'Download',
    roles: [2],
    accountType: 'client',
  }
  const [id] = await writeAccounts(shell().db, [account], SHELL_PASSWORD)
  await shell().db.db.updateTable('app_user').set({ phone_number: phone }).where('id', '=', id!).execute()
}

test('a person asks for their data, downloads it from the mailed link, and sees until when it is kept', async ({
  browser,
}) => {
  const run = `${test.info().project.name}-${Date.now()}`
  const email = `dana-${run}@example.com`
  const mine = `MARK-MINE-${run}`
  const theirs = `MARK-THEIRS-${run}`
  await newClient(email, mine)
  await shell()
    .db.db.updateTable('app_user')
    .set({ phone_number: theirs })
    .where('email', '=', accounts.company.email)
    .execute()

  const page = await signInAs(browser, shell().base, email)
  await page.goto(`${shell().base}${SETTINGS}`)
  const section = main(page).getByTestId('data-export')
  await expect(section.getByRole('heading', { name: 'Download your data' })).toBeVisible()
  await expect(section.getByTestId('data-export-state')).toHaveText(
    'You have not asked for a copy of your data yet.',
  )
  await section.getByRole('button', { name: 'Ask for a copy of my data' }).click()
  await expect(section.getByRole('status')).toHaveText(
    'We are preparing your data. We will email you a link when it is ready.',
  )
  await expect(section.getByRole('button', { name: 'Ask for a copy of my data' })).toHaveCount(0)

  const mail = await smtp.waitFor(email, (m) => m.subject === 'Your Workneer data is ready to download')
  const link = linkIn(mail, `${SETTINGS}/data-export/download`).replace(/^https?:\/\/[^/]+/, shell().base)
  const downloading = page.waitForEvent('download')
  await page.goto(link).catch(() => undefined) // a download, not a page: goto reports it as aborted
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^workneer-data-\d{4}-\d{2}-\d{2}\.zip$/)
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await download.path())))
  expect(Object.keys(zip)).toEqual(expect.arrayContaining(['json/account.json', 'csv/account.csv']))
  const everything = Object.values(zip)
    .map((bytes) => Buffer.from(bytes).toString('utf8'))
    .join('\n')
  expect(everything).toContain(mine)
  expect(everything).toContain(email)
  expect(everything).not.toContain(theirs)
  expect(everything).not.toContain(accounts.company.email)

  await page.goto(`${shell().base}${SETTINGS}`)
  await expect(section.getByTestId('data-export-state')).toContainText('Your data is ready to download until')
  await expect(section.getByRole('link', { name: 'Download your data (ZIP)' })).toHaveAttribute(
    'href',
    `${SETTINGS}/data-export/download`,
  )
  await expect(section).toContainText('You can ask for a new copy after')
  await section.scrollIntoViewIfNeeded()
  await expectNoAxeViolations(page)
  await page.context().close()
})
