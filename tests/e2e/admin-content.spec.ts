import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { jsEnabled } from './project-js'
import { confirmIn } from './confirm'

// The admin area's content screens end to end (issue 18 items 3 and 4): a SuperAdmin writes a blog
// post in English and Italian, previews it, saves and publishes it, and visitors read it in their
// language (not in German, where it is not written); an edited FAQ entry, home box and a new
// partner logo (an uploaded image) show on the public pages at once; bad input names the field;
// anyone else is sent to the unauthorized page; /userService lists the services with their ways
// into the marketplace. JavaScript on and off; axe on each page (with JavaScript).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()

const main = (page: Page) => page.locator('main')
const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
async function visitor(browser: Browser, lang: string) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  await context.addCookies([{ name: 'lang', value: lang, url: shell().base }])
  return context.newPage()
}
const language = (page: Page, name: string) => main(page).getByRole('group', { name })
// A 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

test('an admin writes a blog post in two languages, previews and publishes it; visitors read it in their language', async ({
  browser,
}) => {
  const js = jsEnabled()
  const word = `p${Date.now().toString(36)}`
  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/content`)
  await expect(sam).toHaveURL(/\/admin\/content\/blogs$/)
  await expect(main(sam).locator('h1')).toHaveText('Blog posts')
  await expectNoAxeViolations(sam)

  await main(sam).getByRole('link', { name: 'New blog post' }).click()
  await expect(main(sam).locator('h1')).toHaveText('New blog post')
  await language(sam, 'English').getByLabel('Title').fill(`Timber roofs ${word}`)
  await language(sam, 'English').getByLabel('Text').fill('Timber roofs are light.\n\nThey need <b>care</b>.')
  await language(sam, 'Italiano').getByLabel('Title').fill(`Tetti in legno ${word}`)
  // Half a language is refused, naming the field; nothing is saved.
  await main(sam).getByLabel('Author').fill('Sam Support')
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), false)
  await expect(main(sam).locator('[id="field-body.it-error"]')).toHaveText(
    'Fill this in too, or leave the whole language empty.',
  )
  await expect(language(sam, 'English').getByLabel('Title')).toHaveValue(`Timber roofs ${word}`)
  await language(sam, 'Italiano').getByLabel('Text').fill('I tetti in legno sono leggeri.\n\nServono cure.')

  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Preview' }), false)
  const preview = main(sam).getByTestId('content-preview')
  await expect(
    preview.getByTestId('preview-en').getByRole('heading', { name: `Timber roofs ${word}` }),
  ).toBeVisible()
  await expect(
    preview.getByTestId('preview-it').getByRole('heading', { name: `Tetti in legno ${word}` }),
  ).toBeVisible()
  // Text stays text: the markup shows as typed.
  await expect(preview.getByTestId('preview-en')).toContainText('They need <b>care</b>.')
  await expect(preview.getByTestId('preview-de')).toHaveCount(0)
  // Each language's byline in its own words, also when the browser drew the preview (decision 315).
  await expect(preview.getByTestId('preview-en')).toContainText('By Sam Support')
  await expect(preview.getByTestId('preview-it')).toContainText('Di Sam Support')
  await expectNoAxeViolations(sam)

  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), js)
  await expect(main(sam).locator('h1')).toHaveText(`Timber roofs ${word}`)
  await expect(main(sam).getByText('Draft', { exact: true })).toBeVisible()
  const postId = Number(/\/admin\/content\/blogs\/(\d+)$/.exec(sam.url())?.[1])
  expect(postId).toBeGreaterThan(0)
  // A draft is not public.
  const it = await visitor(browser, 'it')
  await it.goto(`${shell().base}/blogs`)
  await expect(main(it).getByText(`Tetti in legno ${word}`)).toHaveCount(0)

  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Publish' }), js)
  await expect(sam).toHaveURL(/\/admin\/content\/blogs$/)
  const item = main(sam)
    .getByTestId('content-item')
    .filter({ hasText: `Timber roofs ${word}` })
  await expect(item.getByText('Published', { exact: true })).toBeVisible()
  await expect(item).toContainText('EN, IT')

  await it.goto(`${shell().base}/blogs`)
  await main(it)
    .getByRole('link', { name: `Tetti in legno ${word}` })
    .click()
  await expect(main(it).locator('h1')).toHaveText(`Tetti in legno ${word}`)
  await expect(main(it)).toContainText('Servono cure.')
  await expectNoAxeViolations(it)
  const en = await visitor(browser, 'en')
  await en.goto(`${shell().base}/blogs`)
  await expect(main(en).getByRole('link', { name: `Timber roofs ${word}` })).toBeVisible()
  const de = await visitor(browser, 'de')
  await de.goto(`${shell().base}/blogs`)
  await expect(main(de).locator('h1')).toHaveText('Blog')
  await expect(main(de).locator(`a[href="/blogs/${postId}"]`)).toHaveCount(0)
  await de.goto(`${shell().base}/blogs/${postId}`)
  await expect(de).toHaveURL(/\/auth\/not-found$/)
  await Promise.all([it, en, de, sam].map((p) => p.context().close()))
})

test('an admin edits an FAQ entry, a home box and adds a partner logo; the public pages show them at once', async ({
  browser,
}) => {
  const js = jsEnabled()
  const word = `f${Date.now().toString(36)}`
  const sam = await signedIn(browser, accounts.admin.email)
  const en = await visitor(browser, 'en')
  // The visitor's pages are kept for a few seconds: the admin's writes must make them forget.
  await en.goto(`${shell().base}/faq`)
  await en.goto(shell().base)

  await sam.goto(`${shell().base}/admin/content/faq`)
  await expectNoAxeViolations(sam)
  await main(sam).getByTestId('content-item').first().getByRole('link', { name: 'Edit' }).click()
  await language(sam, 'English').getByLabel('Question').fill(`How do I hire an engineer? ${word}`)
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), js)
  await expect(main(sam).locator('h1')).toHaveText(`How do I hire an engineer? ${word}`)
  await en.goto(`${shell().base}/faq`)
  await expect(main(en).getByText(`How do I hire an engineer? ${word}`)).toBeVisible()

  await sam.goto(`${shell().base}/admin/content/boxes`)
  await main(sam).getByTestId('content-item').first().getByRole('link', { name: 'Edit' }).click()
  await language(sam, 'English').getByLabel('Title').fill(`Post a project ${word}`)
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Preview' }), false)
  await expect(
    main(sam)
      .getByTestId('preview-en')
      .getByRole('heading', { name: `Post a project ${word}` }),
  ).toBeVisible()
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), js)

  await sam.goto(`${shell().base}/admin/content/logos/new`)
  await main(sam).getByLabel('Partner name').fill(`Partner ${word}`)
  await main(sam).getByLabel('Partner website (optional)').fill('https://partner.example/')
  // Not an image: refused on the field (docs/product.md §5), nothing saved.
  await main(sam)
    .getByLabel('Image')
    .setInputFiles({ name: 'partner.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') })
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), false)
  await expect(main(sam).locator('#field-imageFile-error')).toHaveText('Please select a valid image.')
  await expect(main(sam).getByLabel('Partner name')).toHaveValue(`Partner ${word}`)
  await main(sam)
    .getByLabel('Image')
    .setInputFiles({ name: 'partner.png', mimeType: 'image/png', buffer: png })
  await expectNoAxeViolations(sam)
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save' }), js)
  await expect(main(sam).locator('h1')).toHaveText(`Partner ${word}`)

  await en.goto(shell().base)
  await expect(main(en).getByRole('heading', { name: `Post a project ${word}` })).toBeVisible()
  const logo = main(en).getByRole('link', { name: `Partner ${word}` })
  await expect(logo).toHaveAttribute('href', 'https://partner.example/')
  await expect(logo.locator('img')).toHaveAttribute('src', /^\/api\/v1\/files\/\d+\/download$/)

  // Deleting cannot be undone: it asks first, naming the item, and says when it is done (decision 310).
  await sam.goto(`${shell().base}/admin/content/logos`)
  const item = main(sam)
    .getByTestId('content-item')
    .filter({ hasText: `Partner ${word}` })
  await confirmIn(sam, 'Delete', `Delete “Partner ${word}”? This cannot be undone.`, item)
  await expect(sam.locator('.notices')).toContainText('Deleted.')
  await expect(
    main(sam)
      .getByTestId('content-item')
      .filter({ hasText: `Partner ${word}` }),
  ).toHaveCount(0)
  await Promise.all([en, sam].map((p) => p.context().close()))
})

test('no one but a SuperAdmin reaches the content screens', async ({ browser }) => {
  for (const who of [accounts.client, accounts.freelancer]) {
    const page = await signedIn(browser, who.email)
    await page.goto(`${shell().base}/admin/content/faq`)
    await expect(page).toHaveURL(/\/auth\/unauthorized$/)
    await page.context().close()
  }
})

test('/userService: a visitor finds the services by area, with their ways into the marketplace', async ({
  browser,
}) => {
  const page = await visitor(browser, 'en')
  await page.goto(shell().base)
  await main(page).getByRole('link', { name: 'See all services' }).click()
  await expect(page).toHaveURL(/\/userService$/)
  await expect(main(page).locator('h1')).toHaveText('Services our engineers offer')
  const area = main(page).getByRole('region', { name: 'Engineering' })
  await expect(area.getByRole('listitem').first()).toBeVisible()
  await expect(area.getByRole('link', { name: 'Find engineers in Engineering' })).toHaveAttribute(
    'href',
    /^\/freelancers\?category=\d+$/,
  )
  await expect(area.getByRole('link', { name: 'Projects in Engineering' })).toHaveAttribute(
    'href',
    /^\/projects\/getprojects\?search=all&categoryId=\d+$/,
  )
  await expectNoAxeViolations(page)
  const es = await visitor(browser, 'es')
  await es.goto(`${shell().base}/userService`)
  await expect(main(es).locator('h1')).toHaveText('Servicios que ofrecen nuestros ingenieros')
  await Promise.all([page, es].map((p) => p.context().close()))
})
