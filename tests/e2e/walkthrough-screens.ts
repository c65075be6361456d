import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { accounts } from './shell-server'
import { apiCall, hiredProject } from './contract-setup'
import { signInAs, type useShellServer } from './shell-session'
import { fundByApi } from './checkout'

// What issue 39's walk-through photographs, shared by its "now" (walkthrough.spec.ts) and its
// "before" (docs/walkthrough/issue-39-before.spec.mts, run in a worktree of the commit before the
// issue's work): it uses only helpers whose names and API calls were the same then.
type Shell = ReturnType<ReturnType<typeof useShellServer>>

export function walkthrough(shell: () => Shell, dir: string) {
  const api = (method: string, p: string, token: string | null, body?: unknown) =>
    apiCall(shell().base, method, p, token, body)

  /** A JPEG of the page (the whole page, or its first screen), small enough to keep in the repository. */
  async function shot(page: Page, name: string, fullPage = true) {
    fs.mkdirSync(dir, { recursive: true })
    await page.screenshot({ path: path.join(dir, `${name}.jpg`), type: 'jpeg', quality: 55, fullPage })
    // WALKTHROUGH_PNG=<folder>: a lossless copy there too, to look at before committing.
    const review = process.env.WALKTHROUGH_PNG
    if (review) await page.screenshot({ path: path.join(review, `${name}.png`), fullPage })
  }

  /** A contract with its first installment released and its second funded, then a withdrawal and a disputed refund. */
  async function marketplace() {
    const word = `w${Date.now().toString(36)}`
    const hired = await hiredProject(shell().base, shell().db, {
      title: `Footbridge inspection ${word}`,
      description: 'Inspect a timber footbridge over a river and report on its load capacity and repairs.',
      coverLetter: 'I inspect timber bridges every month and can deliver the report within two weeks.',
      durationDays: 14,
      installments: [
        { title: 'Inspection report', amountMinor: 120000 },
        { title: 'Repair drawings', amountMinor: 80000 },
      ],
    })
    const { clientToken, freelancerToken, projectId, installmentIds } = hired
    await fundByApi(shell().base, clientToken, projectId, installmentIds)
    await api('POST', `projects/installments/${installmentIds[0]}/submit`, freelancerToken, {
      note: 'The report is attached.',
    })
    await api('POST', `projects/installments/${installmentIds[0]}/approve`, clientToken, {})
    await api('POST', 'freelancers/AddFreelancerPaymentMethod', freelancerToken, {
      kind: 'bank',
      holderName: 'Fred Freelancer',
      iban: 'DE89 3704 0044 0532 0130 00',
    })
    const me = await api('GET', 'identity/profile', freelancerToken)
    const methods = await api(
      'GET',
      `freelancers/${me.id}/GetAllPaymentMethodsForFreelancer`,
      freelancerToken,
    )
    await api('POST', 'Payment/payouts', freelancerToken, {
      amountMinor: 50000,
      currency: 'EUR',
      paymentMethodId: methods.data[0].id,
    })
    const asked = await api('POST', `RefundRequest/${projectId}/${installmentIds[1]}/30000`, clientToken, {
      reason: 'The repair drawings leave out the handrail.',
    })
    await api('POST', `refund-requests/${asked.id}/decline`, freelancerToken, {
      reason: 'The handrail is on sheet 4 of the drawings.',
    })
    const disputed = await api('POST', `refund-requests/${asked.id}/dispute`, clientToken)
    // Before issue 39 a disputed refund opened no ticket.
    return { ...hired, complaintId: disputed.complaintId as number | undefined }
  }

  /** A contract whose one installment is funded and delivered, for the client to approve. */
  async function delivered() {
    const second = await hiredProject(shell().base, shell().db, {
      title: `Roof truss check ${Date.now().toString(36)}`,
      description: 'Check the timber roof trusses of a barn conversion and size the new steel ties.',
      coverLetter: 'I check timber trusses and size steel ties for conversions every month.',
      durationDays: 10,
      installments: [{ title: 'Truss report', amountMinor: 60000 }],
    })
    await fundByApi(shell().base, second.clientToken, second.projectId, second.installmentIds)
    await api('POST', `projects/installments/${second.installmentIds[0]}/submit`, second.freelancerToken, {
      note: 'The report is attached.',
    })
    return second
  }

  /** Account settings, Create Project, both profiles, then the phone in Russian and the blog in Spanish. */
  async function everyday(browser: Browser, profileOpen?: (fred: Page) => Promise<void>) {
    const clara = await signInAs(browser, shell().base, accounts.client.email)
    for (const [name, p] of [
      ['11-account-settings', '/profile/account-settings'],
      ['12-create-project', '/projects/create'],
      ['13-profile-client', '/profile'],
    ] as const) {
      await clara.goto(`${shell().base}${p}`)
      await shot(clara, name)
    }
    const fred = await signInAs(browser, shell().base, accounts.freelancer.email)
    await fred.goto(`${shell().base}/profile`)
    await shot(fred, '14-profile-freelancer')
    await profileOpen?.(fred)

    const phone = await browser.newContext({ viewport: { width: 320, height: 720 }, locale: 'ru-RU' })
    await phone.addCookies([{ name: 'lang', value: 'ru', url: shell().base }])
    const page = await phone.newPage()
    for (const [name, p] of [
      ['16-phone-ru-home', '/'],
      ['17-phone-ru-find-project', '/projects'],
      ['18-phone-ru-blog', '/blogs'],
    ] as const) {
      await page.goto(`${shell().base}${p}`)
      await shot(page, name, false)
    }
    const es = await browser.newContext({ locale: 'es-ES' })
    await es.addCookies([{ name: 'lang', value: 'es', url: shell().base }])
    const blog = await es.newPage()
    await blog.goto(`${shell().base}/blogs`)
    await shot(blog, '19-blog-es', false)
  }

  return { shot, marketplace, delivered, everyday }
}
