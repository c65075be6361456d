import { expect, test } from '@playwright/test'
import { writeAccounts } from '../support/accounts.ts'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { shellSteps } from './shell-steps'

// Invitations and invite-only projects end to end (decision 335), JavaScript on (PostgreSQL) and
// off (SQLite): a client invites a freelancer from their profile to an invite-only project; the
// freelancer (who sees it, while another freelancer is told it does not exist) accepts from their
// invitations, proposes, and is hired; the client's page shows the invitation accepted.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const { main, go, click, idOf } = shellSteps(shell)

test('a client invites a freelancer to an invite-only project; the freelancer accepts, proposes and is hired', async ({
  browser,
}) => {
  const word = `vault${Date.now().toString(36)}`
  const title = `Masonry ${word} vault assessment`
  const nia = `nia.${word}@example.test`
  await writeAccounts(
    shell().db,
    [{ email: nia, firstName: 'Nia', lastName: 'Outside', roles: [4], accountType: 'freelancer' }],
    SHELL_PASSWORD,
  )
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const login = await client.request.post(`${shell().base}/api/v1/identity/login`, {
    data: { email: accounts.client.email, password: SHELL_PASSWORD },
  })
  const token = (await login.json()).token as string
  const project = await client.request.post(`${shell().base}/api/v1/projects`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      title,
      description: 'Assess a brick barrel vault under a listed warehouse before new floor loads are added.',
      subcategoryId: sub.id,
      budgetType: 'fixed',
      budgetMinor: 90000,
      currency: 'EUR',
      durationDays: 14,
      remote: true,
      visibility: 'invited',
      publish: true,
    },
  })
  expect(project.status(), await project.text()).toBe(200)
  const projectId = (await project.json()).id as number

  // The client invites Fred from his public profile, with a message.
  await go(client, `/profiles/freelancers/${await idOf(accounts.freelancer.email)}`)
  const invite = main(client).locator('#invite')
  await invite.getByLabel('Project').selectOption(String(projectId))
  await invite.getByLabel('Your message').fill('Your vault work in Leeds is exactly what we need.')
  await click(client, 'Send the invitation', invite)
  await expect(main(client).getByTestId('invited-notice')).toHaveText(
    `Fred Freelancer is invited to “${title}”.`,
  )
  await expectNoAxeViolations(client)

  // Another freelancer is told the project does not exist.
  const outsider = await signInAs(browser, shell().base, nia)
  expect((await go(outsider, `/projects/details/${projectId}`))?.status()).toBe(404)

  // Fred finds the invitation in his list, accepts it and lands on the proposal form.
  const fred = await signInAs(browser, shell().base, accounts.freelancer.email)
  await go(fred, '/projects/invitations')
  const card = main(fred).getByTestId('invitation').filter({ hasText: title })
  await expect(card).toContainText('Your vault work in Leeds is exactly what we need.')
  await expect(card.getByTestId('invitation-state')).toHaveText('Waiting for an answer')
  await expectNoAxeViolations(fred)
  await click(fred, 'Accept and write a proposal', card)
  await expect(fred).toHaveURL(new RegExp(`/projects/details/${projectId}`))
  await main(fred)
    .getByLabel('Cover letter')
    .fill('I have assessed many masonry vaults and write clear reports.')
  await main(fred)
    .getByLabel(/Your price/)
    .fill('900')
  await main(fred).getByLabel('Duration in days').fill('14')
  await click(fred, 'Send proposal')
  await expect(main(fred).getByTestId('sent-notice')).toContainText('Your proposal is sent.')

  // The client sees the invitation accepted, and hires Fred.
  await go(client, `/projects/client/details/${projectId}`)
  await expect(main(client).getByTestId('visibility')).toHaveText(
    'Only you and the freelancers you invite can see this project.',
  )
  await expect(main(client).getByTestId('sent-invitation').getByTestId('invitation-state')).toHaveText(
    'Accepted',
  )
  await click(client, 'Accept', main(client).getByTestId('proposal').first())
  await expect(main(client).getByTestId('accepted-notice')).toContainText('Proposal accepted')
})
