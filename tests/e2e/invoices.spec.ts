import fs from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { apiCall } from './contract-setup'
import { pdfText } from '../support/pdf-text.ts'

// Issue 17 item 7, end to end with JavaScript on and off: after a release (set up through the
// API; the screens of paying and approving are payments.spec.ts's), the freelancer and the client
// see their invoices and download one as a PDF with its number; the client opens the statement
// with its running balance, is told when the dates are reversed, and downloads the CSV. Issue 39
// item 5 (decision 311): before the release both enter their invoice details in account settings
// (a malformed VAT id is refused under its field), and the PDF carries them, the platform's legal
// details from the configuration and the tax lines.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const shell = useShellServer(() => ({
  PLATFORM_LEGAL_NAME: 'Workneer S.L.',
  PLATFORM_ADDRESS: 'Calle Mayor 1; 28013 Madrid; Spain',
  PLATFORM_REGISTRATION: 'Registro Mercantil de Madrid, hoja M-123456',
  PLATFORM_VAT_ID: 'ESB12345678',
  PLATFORM_VAT_PERCENT: '21',
}))
const main = (page: Page) => page.locator('main')

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  apiCall(shell().base, method, path, token, body)

/** Fills account settings' "Invoice details" (labels as a person reads them) and saves. */
async function saveInvoiceDetails(page: Page, values: Record<string, string>) {
  await page.goto(`${shell().base}/profile/account-settings`)
  const section = page.locator('#invoice-details')
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Invoice details')
  for (const [label, value] of Object.entries(values))
    await section.getByLabel(label, { exact: true }).fill(value)
  await section.getByRole('button', { name: 'Save invoice details' }).click()
  return section
}

async function download(page: Page, link: ReturnType<Page['locator']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()])
  return { name: file.suggestedFilename(), body: await fs.readFile(await file.path()) }
}

test('after a release both parties see their invoices and the PDF; the statement shows the running balance and exports CSV', async ({
  browser,
}) => {
  const token = async (email: string) =>
    (await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
  const [clientToken, freelancerToken] = [
    await token(accounts.client.email),
    await token(accounts.freelancer.email),
  ]
  const { id: subcategoryId } = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  // Both enter their invoice details once; the freelancer first types a VAT id that is no id.
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  const fredDetails = {
    Address: 'Carrer de Mallorca 100',
    'Postcode (optional)': '08029',
    City: 'Barcelona',
    Country: 'Spain',
    'VAT or tax ID (optional)': 'ES 1234#678Z',
    'VAT rate you charge, in % (optional)': '20',
  }
  let section = await saveInvoiceDetails(freelancer, fredDetails)
  const vatId = section.getByLabel('VAT or tax ID (optional)', { exact: true })
  await expect(vatId).toHaveAttribute('aria-invalid', 'true')
  await expect(
    section.locator('.field').filter({ has: freelancer.getByLabel('VAT or tax ID (optional)') }),
  ).toContainText('Enter the VAT or tax ID in letters and digits only')
  await expect(section.getByText('Your invoice details were saved.')).toHaveCount(0)
  await expectNoAxeViolations(freelancer)
  section = await saveInvoiceDetails(freelancer, {
    ...fredDetails,
    'VAT or tax ID (optional)': 'es 12345678-z',
  })
  await expect(section).toContainText('Your invoice details were saved.')
  await expect(vatId).toHaveValue('ES12345678Z')
  await expect(section.getByLabel('City', { exact: true })).toHaveValue('Barcelona')
  // The section fits a 320 px phone without scrolling sideways.
  await freelancer.setViewportSize({ width: 320, height: 800 })
  expect(await freelancer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  await freelancer.setViewportSize({ width: 1280, height: 800 })

  const client = await signInAs(browser, shell().base, accounts.client.email)
  section = await saveInvoiceDetails(client, {
    'Legal name (optional)': 'Clara Client GmbH',
    Address: 'Hauptstraße 5',
    'Postcode (optional)': '10115',
    City: 'Berlin',
    Country: 'Germany',
    'VAT or tax ID (optional)': 'DE123456789',
  })
  await expect(section).toContainText('Your invoice details were saved.')
  // Only a freelancer charges VAT on their work.
  await expect(section.getByLabel('VAT rate you charge, in % (optional)')).toHaveCount(0)

  const installments = [{ title: 'Calculations', amountMinor: 120000 }]
  const title = `Roof, "truss" check ${test.info().project.name}`
  const project = await api('POST', 'projects', clientToken, {
    title,
    description: 'Check the timber roof trusses of a barn conversion and design the repairs.',
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor: 120000,
    currency: 'EUR',
    remote: true,
    installments,
    publish: true,
  })
  const proposal = await api('POST', `projects/${project.id}/proposal`, freelancerToken, {
    coverLetter: 'I check timber trusses every week and can deliver the calculations in two weeks.',
    bidMinor: 120000,
    durationDays: 14,
    installments,
  })
  const contract = await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, clientToken)
  const installmentId = contract.installments[0].id
  await fundByApi(shell().base, clientToken, project.id, [installmentId])
  await api('POST', `projects/installments/${installmentId}/submit`, freelancerToken, {
    note: 'Calculations attached.',
  })
  await api('POST', `projects/installments/${installmentId}/approve`, clientToken, {})

  // The freelancer: their invoice to the client for the work, and the platform's commission.
  await freelancer.goto(`${shell().base}/invoices`)
  await expect(main(freelancer).getByRole('heading', { level: 1 })).toHaveText('Invoices')
  await expect(
    main(freelancer).getByRole('link', {
      name: 'Change the name, address and VAT or tax ID on your next invoices',
    }),
  ).toHaveAttribute('href', '/profile/account-settings#invoice-details')
  const work = main(freelancer)
    .getByTestId('invoice')
    .filter({ hasText: title })
    .filter({ hasText: 'Work delivered' })
  await expect(work).toContainText('Fred Freelancer')
  await expect(work).toContainText('Clara Client')
  await expect(work).toContainText('€1,200.00')
  await expect(
    main(freelancer)
      .getByTestId('invoice')
      .filter({ hasText: title })
      .filter({ hasText: 'Platform commission' }),
  ).toContainText('€120.00')
  const number = (await work.locator('strong').textContent())!
  expect(number).toMatch(/^WN-\d{4}-\d{6}$/)
  await expectNoAxeViolations(freelancer)
  const pdf = await download(
    freelancer,
    work.getByRole('link', { name: `Download invoice ${number} as PDF` }),
  )
  expect(pdf.name).toBe(`${number}.pdf`)
  expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-')
  expect(pdf.body.toString('latin1')).toContain(`(${number})`)
  // Seller and buyer as they entered them, one line for the work, its VAT (the price includes
  // Fred's 20 %), and the platform's legal details.
  const pdfWords = pdfText(pdf.body).replace(/\s*\n/g, ' ')
  expect(pdfWords).toContain(
    'FROM Fred Freelancer Carrer de Mallorca 100 08029 Barcelona Spain VAT / tax ID: ES12345678Z BILLED TO Clara Client GmbH Hauptstraße 5 10115 Berlin Germany VAT / tax ID: DE123456789',
  )
  expect(pdfWords).toContain('installment “Calculations” 1 €1,000.00 €1,000.00')
  expect(pdfWords).toContain(
    'Subtotal before VAT €1,000.00 VAT 20% (included in the total) €200.00 Total €1,200.00',
  )
  expect(pdfWords).toContain(
    'Workneer S.L. · Calle Mayor 1 · 28013 Madrid · Spain · Company registration: Registro Mercantil de Madrid, hoja M-123456 · VAT / tax ID: ESB12345678',
  )

  // The client: the same invoice for the work, and the platform's service fee with its 21 % VAT.
  await client.goto(`${shell().base}/invoices`)
  await expect(main(client).getByTestId('invoice').filter({ hasText: number })).toContainText('€1,200.00')
  const fee = main(client)
    .getByTestId('invoice')
    .filter({ hasText: title })
    .filter({ hasText: 'Service fee' })
  await expect(fee).toContainText('€36.00')
  const feeNumber = (await fee.locator('strong').textContent())!
  const feePdf = pdfText(
    (await download(client, fee.getByRole('link', { name: `Download invoice ${feeNumber} as PDF` }))).body,
  ).replace(/\s*\n/g, ' ')
  expect(feePdf).toContain(
    'FROM Workneer S.L. Calle Mayor 1 28013 Madrid Spain VAT / tax ID: ESB12345678 Company registration: Registro Mercantil de Madrid, hoja M-123456 BILLED TO Clara Client GmbH',
  )
  expect(feePdf).toContain('Subtotal before VAT €29.75 VAT 21% (included in the total) €6.25 Total €36.00')
  await expect(main(client).getByText('Platform commission')).toHaveCount(0)

  // The client's statement: the payment came in and was held, then released; the balance follows.
  await client.goto(`${shell().base}/statements`)
  const rows = main(client).getByTestId('movement').filter({ hasText: title })
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('Payment received and held')
  await expect(rows.nth(0)).toContainText('+€1,236.00')
  await expect(rows.nth(1)).toContainText('Released to the freelancer')
  await expect(rows.nth(1)).toContainText('-€1,236.00')
  await expect(rows.nth(1)).toContainText('Price €1,200.00 · service fee €36.00')
  await expect(rows.nth(1).locator('td').last()).toHaveText('€0.00')
  await expectNoAxeViolations(client)

  // Reversed dates are named on the field; nothing is listed.
  await main(client).getByLabel('From').fill('2026-03-02')
  await main(client).getByLabel('To').fill('2026-03-01')
  await main(client).getByRole('button', { name: 'Show' }).click()
  await expect(main(client)).toContainText('The end date cannot be before the start date.')
  await expect(main(client).getByLabel('To')).toHaveAttribute('aria-invalid', 'true')
  await expect(main(client).getByTestId('movement')).toHaveCount(0)

  // Today's movements, and their CSV: quoted where needed, neutral amounts, the running balance.
  const today = new Date().toISOString().slice(0, 10)
  await main(client).getByLabel('From').fill(today)
  await main(client).getByLabel('To').fill(today)
  await main(client).getByRole('button', { name: 'Show' }).click()
  await expect(main(client).getByTestId('movement').filter({ hasText: title })).toHaveCount(2)
  const csv = await download(client, main(client).getByRole('link', { name: 'Download CSV' }))
  expect(csv.name).toBe(`statement-${today}-${today}.csv`)
  const text = csv.body.toString('utf8')
  expect(
    text.startsWith(
      '\uFEFFDate (UTC),Description,Project,Account,Amount,Price,Fee,Withdrawal,Currency,Balance\r\n',
    ),
  ).toBe(true)
  const quoted = `"Roof, ""truss"" check ${test.info().project.name}`
  expect(text).toContain(`,Payment received and held,${quoted}",Held,1236.00,,,,EUR,`)
  // The same rows as the page: a release with its price and fee beside the amount.
  expect(text).toContain(
    `,Released to the freelancer,${quoted} · Calculations",Held,-1236.00,1200.00,36.00,,EUR,`,
  )

  await client.context().close()
  await freelancer.context().close()
})
