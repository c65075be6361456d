import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { shellApi } from './shell-api'
import { hiredRoom as hiredRoomOf } from './hired-room'
import { expectNoAxeViolations } from './axe'
import { settle } from './settle'
import { jsEnabled } from './project-js'

// Chat end to end (issue 16, items 4 and 5): a client and a freelancer in two browser contexts.
// With JavaScript, messages and an attachment arrive live through the chat hub, the messages icon
// and the chat list count unread rooms up and down, read receipts and typing show; without it the
// same conversation goes by forms and reloads. On SQLite and PostgreSQL, JavaScript on and off.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const js = jsEnabled

const { call, login } = shellApi(() => shell().base)

/** A project with an accepted proposal, so the client and the freelancer share a room. */
const hiredRoom = (word: string) => hiredRoomOf(shell, { call, login }, word)

const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const iconBadge = (page: Page) => page.locator('header details.messages summary .badge')
const messages = (page: Page) => page.locator('main').getByTestId('message')
const message = (page: Page, text: string) => messages(page).filter({ hasText: text })
const roomInList = (page: Page, title: string) =>
  page.locator('main').getByTestId('room').filter({ hasText: title })
const connected = (page: Page) =>
  expect(page.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', {
    timeout: 15_000,
  })
const unreadRooms = async (token: string) =>
  (await call('GET', 'chat/rooms/count', token)).unreadCount as number

/** Without JavaScript a page shows what happened elsewhere only after a reload: reload until it does. */
async function eventually(page: Page, check: () => Promise<void>) {
  if (js()) return check()
  await expect(async () => {
    await page.reload()
    await check()
  }).toPass({ timeout: 15_000 })
}

async function send(page: Page, text: string) {
  await page.locator('main').getByLabel('Message', { exact: true }).fill(text)
  await page.locator('main').getByRole('button', { name: 'Send' }).click()
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

test('a client and a freelancer chat: messages and an attachment both ways, unread counts up and down, read state', async ({
  browser,
}) => {
  const word = `chat${Date.now().toString(36)}`
  const { roomId, projectId, title, freelancer: freelancerToken } = await hiredRoom(word)
  const client = await signedIn(browser, accounts.client.email)
  const freelancer = await signedIn(browser, accounts.freelancer.email)

  // The freelancer has read everything so far and waits on the chat list.
  await freelancer.goto(`${shell().base}/chats/${roomId}`)
  await expect(freelancer.locator('main').getByTestId('message-log')).toBeVisible()
  const before = await unreadRooms(freelancerToken)
  await freelancer.goto(`${shell().base}/chats`)
  await expect(freelancer.locator('main h1')).toHaveText('Messages')
  await expect(roomInList(freelancer, title)).toContainText('Clara Client')
  await expect(roomInList(freelancer, title).getByTestId('room-unread')).toHaveCount(0)
  if (before) await expect(iconBadge(freelancer)).toHaveText(String(before))
  else await expect(iconBadge(freelancer)).toHaveCount(0)

  // The client opens the room from the contract's page and writes, with a link in the text.
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await client.locator('main').getByRole('link', { name: 'Open the chat' }).click()
  await expect(client).toHaveURL(`${shell().base}/chats/${roomId}`)
  // The URL changes before a loaded machine has drawn the room: wait for the room itself.
  await expect(client.locator('main').getByTestId('message-log')).toBeVisible()
  await expect(client.locator('main').getByTestId('person')).toContainText('Fred Freelancer')
  await expect(client.locator('main').getByTestId('person')).toContainText(title)
  await expect(client.locator('main').getByRole('link', { name: 'Open the contract' })).toBeVisible()
  if (js()) await Promise.all([connected(client), connected(freelancer)])
  await send(client, `Hello Fred, the wall survey ${word} is at https://example.com/survey <b>not bold</b>`)
  const first = message(client, `survey ${word}`)
  await expect(first).toHaveAttribute('data-state', 'sent')
  await expect(first.getByRole('link', { name: 'https://example.com/survey' })).toHaveAttribute(
    'href',
    'https://example.com/survey',
  )
  await expect(first).toContainText('<b>not bold</b>')
  await expect(first.locator('b')).toHaveCount(0)

  // The freelancer's icon and list count the room (live with JavaScript, after a reload without).
  await eventually(freelancer, () =>
    expect(iconBadge(freelancer)).toHaveText(String(before + 1), { timeout: js() ? 15_000 : 500 }),
  )
  await expect(roomInList(freelancer, title).getByTestId('room-unread')).toHaveText('1')
  await expect(roomInList(freelancer, title)).toContainText(`survey ${word}`)

  // Opening the room reads it: the counts fall, and the client's message shows as read.
  await roomInList(freelancer, title).getByRole('link').click()
  await expect(freelancer).toHaveURL(`${shell().base}/chats/${roomId}`)
  await expect(message(freelancer, `survey ${word}`)).toBeVisible()
  if (before) await expect(iconBadge(freelancer)).toHaveText(String(before))
  else await expect(iconBadge(freelancer)).toHaveCount(0)
  await eventually(client, () =>
    expect(message(client, `survey ${word}`)).toHaveAttribute('data-state', 'read', {
      timeout: js() ? 15_000 : 500,
    }),
  )

  // The freelancer answers with a picture; the client sees both (live, or after a reload).
  if (js()) {
    await freelancer.locator('main').getByLabel('Message', { exact: true }).pressSequentially('Here')
    await expect(client.getByTestId('typing')).toHaveText('Fred Freelancer is typing…')
  }
  await freelancer
    .locator('main')
    .getByLabel('Attach a file')
    .setInputFiles({ name: 'wall-photo.png', mimeType: 'image/png', buffer: png })
  await send(freelancer, `Here is the wall ${word}, photographed this morning.`)
  const answer = message(client, `the wall ${word}`)
  await eventually(client, () => expect(answer).toBeVisible({ timeout: js() ? 15_000 : 500 }))
  const image = answer.getByRole('img', { name: 'wall-photo.png' })
  await expect(image).toHaveJSProperty('naturalWidth', 1)
  await expect(message(freelancer, `the wall ${word}`).getByTestId('attachment')).toHaveAttribute(
    'data-kind',
    'image',
  )
  if (js()) await expect(client.getByTestId('typing')).toHaveText('')

  // The attachment is the two members' only: a third user gets 404 for its address.
  const src = (await image.getAttribute('src'))!
  const other = await signedIn(browser, accounts.company.email)
  expect((await other.request.get(`${shell().base}${src}`)).status()).toBe(404)
  expect((await client.request.get(`${shell().base}${src}`)).status()).toBe(200)
  await other.goto(`${shell().base}/chats/${roomId}`)
  await expect(other).toHaveURL(`${shell().base}/auth/not-found`)

  // The freelancer's answer is read by the client (who has the room open); the freelancer sees it.
  await eventually(freelancer, () =>
    expect(message(freelancer, `the wall ${word}`)).toHaveAttribute('data-state', 'read', {
      timeout: js() ? 15_000 : 500,
    }),
  )
  await expectNoAxeViolations(client)
  await client.goto(`${shell().base}/chats`)
  await expect(roomInList(client, title)).toContainText(`the wall ${word}`)
  await expectNoAxeViolations(client)
  await Promise.all([client.context().close(), freelancer.context().close(), other.context().close()])
})

test('a doubled send stores one message; an empty one says what is wrong and stores nothing', async ({
  browser,
}) => {
  const word = `twice${Date.now().toString(36)}`
  const { roomId, client: clientToken } = await hiredRoom(word)
  const client = await signedIn(browser, accounts.client.email)
  await client.goto(`${shell().base}/chats/${roomId}`)
  const count = await messages(client).count()
  await client.locator('main').getByRole('button', { name: 'Send' }).click()
  // With JavaScript the composer checks before sending; without it the server answers the same.
  await expect(client.locator('main').getByRole('alert')).toHaveText('Write a message or attach a file.')
  await expect(messages(client)).toHaveCount(count)

  // The same form posted twice (a double click, a retried request) carries one client message id.
  const id = await client.locator('main input[name="clientMessageId"]').inputValue()
  for (let i = 0; i < 2; i++) {
    const response = await client.request.post(`${shell().base}/chats/${roomId}`, {
      multipart: { clientMessageId: id, text: `Only once ${word}` },
      headers: { origin: shell().base },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(302)
  }
  const stored = await call('GET', `chat/${roomId}`, clientToken)
  expect(stored.data.filter((m: { text: string }) => m.text === `Only once ${word}`)).toHaveLength(1)
  await client.reload()
  await expect(message(client, `Only once ${word}`)).toHaveCount(1)
  await client.context().close()
})

test('a long history opens at its newest 50; earlier messages load on scroll, or by a link without JavaScript', async ({
  browser,
}) => {
  const word = `long${Date.now().toString(36)}`
  const { roomId, client: clientToken } = await hiredRoom(word)
  for (let i = 1; i <= 60; i++)
    await call('POST', `chat/${roomId}`, clientToken, {
      clientMessageId: `${word}-${i}`,
      text: `Note ${i} of ${word}`,
    })
  const client = await signedIn(browser, accounts.client.email)
  await client.goto(`${shell().base}/chats/${roomId}`)
  await expect(messages(client)).toHaveCount(50)
  await expect(message(client, `Note 60 of ${word}`)).toBeInViewport()
  await expect(message(client, `Note 11 of ${word}`)).toHaveCount(1)
  if (js()) {
    await client
      .locator('main .ui-message-scroll')
      .evaluate((box) => box.scrollTo({ top: -box.scrollHeight }))
    await expect(messages(client)).toHaveCount(61)
    await expect(client.locator('main')).toContainText('This is the beginning of your conversation.')
    await expect(client).toHaveURL(`${shell().base}/chats/${roomId}`)
  } else {
    await client.locator('main').getByRole('link', { name: 'Load earlier messages' }).click()
    await expect(client).toHaveURL(new RegExp(`/chats/${roomId}\\?before=\\d+$`))
    await expect(messages(client)).toHaveCount(11)
    await expect(message(client, `Note 10 of ${word}`)).toHaveCount(1)
    await client.locator('main').getByRole('link', { name: 'Show the newest messages' }).click()
    await expect(message(client, `Note 60 of ${word}`)).toHaveCount(1)
  }
  await client.context().close()
})

test('the chat pages speak each language', async ({ browser }) => {
  const word = `lang${Date.now().toString(36)}`
  const { roomId } = await hiredRoom(word)
  const client = await signedIn(browser, accounts.client.email)
  for (const lng of ['en', 'es', 'de', 'it', 'ru']) {
    const texts = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, `../../locales/${lng}/chat.json`), 'utf8'),
    )
    await client.context().addCookies([{ name: 'lang', value: lng, url: shell().base }])
    await client.goto(`${shell().base}/chats`)
    await expect(client.locator('html')).toHaveAttribute('lang', lng)
    await expect(client.locator('main h1')).toHaveText(texts.list.title)
    await client.goto(`${shell().base}/chats/${roomId}`)
    await expect(client.locator('main').getByLabel(texts.composer.label, { exact: true })).toBeVisible()
    await expect(client.locator('main').getByRole('button', { name: texts.composer.send })).toBeVisible()
  }
  await client.context().close()
})

test('someone without chats sees "No messages" on the list and in the menu', async ({ browser }) => {
  const page = await signedIn(browser, accounts.company.email)
  await page.goto(`${shell().base}/chats`)
  await expect(page.locator('main').getByTestId('empty-state')).toContainText('No messages')
  await page.locator('header details.messages summary').click()
  await expect(page.locator('header details.messages')).toContainText('No messages')
  await page.locator('header details.messages').getByRole('link', { name: 'Open all chats' }).click()
  await expect(page).toHaveURL(`${shell().base}/chats`)
  await expectNoAxeViolations(page)
  await page.context().close()
})

test('after the hub reconnects, the room shows the messages it missed while cut off @needs-js', async ({
  browser,
}) => {
  test.skip(!js(), 'the live room needs JavaScript')
  const word = `gap${Date.now().toString(36)}`
  const { roomId, client: clientToken } = await hiredRoom(word)
  const freelancer = await signedIn(browser, accounts.freelancer.email)
  // The hubs' sockets go through the test, which can cut them; while `cutOff`, the client's
  // reconnect attempts fail at negotiate (so it cannot fall back to another transport either).
  // All hubs: the notifications hub's countChat would otherwise reload the room meanwhile.
  const sockets: Array<{ close: () => Promise<void> }> = []
  let cutOff = false
  await freelancer.routeWebSocket(/\/hubs\/[a-z]+(\?|$)/, (ws) => {
    ws.connectToServer()
    sockets.push(ws)
  })
  await freelancer.route(/\/hubs\/[a-z]+\/negotiate/, (route) =>
    cutOff ? route.abort('connectionreset') : route.continue(),
  )
  await freelancer.goto(`${shell().base}/chats/${roomId}`)
  await connected(freelancer)
  const live = await call('POST', `chat/${roomId}`, clientToken, {
    clientMessageId: `${word}-live`,
    text: `Live before the gap ${word}`,
  })
  await expect(message(freelancer, `Live before the gap ${word}`)).toHaveCount(1)
  // The page reads it (a fetcher post, after which the loaders run again): let that finish first,
  // or its reload would bring the messages below instead of the reconnect.
  await expect
    .poll(async () => (await call('GET', `chat/${roomId}`, clientToken)).otherLastReadMessageId)
    .toBe(live.id)
  await settle(freelancer)

  cutOff = true
  await Promise.all(sockets.splice(0).map((ws) => ws.close()))
  await expect(freelancer.getByTestId('realtime-indicator')).not.toHaveAttribute('data-state', 'connected')
  for (const n of [1, 2])
    await call('POST', `chat/${roomId}`, clientToken, {
      clientMessageId: `${word}-missed-${n}`,
      text: `Missed ${n} ${word}`,
    })
  // Nothing reaches the page while it is cut off.
  await freelancer.waitForTimeout(500)
  await expect(message(freelancer, `Missed 1 ${word}`)).toHaveCount(0)

  cutOff = false
  await connected(freelancer)
  // Reconnected: the room fetched what it missed, once each, in order, and live delivery is back.
  await expect(message(freelancer, `Missed 1 ${word}`)).toHaveCount(1)
  await expect(message(freelancer, `Missed 2 ${word}`)).toHaveCount(1)
  await expect(message(freelancer, `Live before the gap ${word}`)).toHaveCount(1)
  const texts = await messages(freelancer).allTextContents()
  expect(texts.findIndex((t) => t.includes(`Missed 1 ${word}`))).toBeLessThan(
    texts.findIndex((t) => t.includes(`Missed 2 ${word}`)),
  )
  await call('POST', `chat/${roomId}`, clientToken, {
    clientMessageId: `${word}-after`,
    text: `Live after the gap ${word}`,
  })
  await expect(message(freelancer, `Live after the gap ${word}`)).toHaveCount(1)
  await freelancer.context().close()
})

test('a room whose contract was cancelled says why in place of the composer; a form posted from before goes back to it', async ({
  browser,
}) => {
  const word = `closed${Date.now().toString(36)}`
  const { roomId, projectId, client: clientToken } = await hiredRoom(word)
  const freelancer = await signedIn(browser, accounts.freelancer.email)
  await freelancer.goto(`${shell().base}/chats/${roomId}`)
  const id = await freelancer.locator('main input[name="clientMessageId"]').inputValue()
  await call('PUT', `projects/${projectId}/updatestate/cancelled`, clientToken)
  const late = await freelancer.request.post(`${shell().base}/chats/${roomId}`, {
    multipart: { clientMessageId: id, text: `Too late ${word}` },
    headers: { origin: shell().base },
    maxRedirects: 0,
  })
  expect(late.status()).toBe(302)
  expect(late.headers().location).toBe(`/chats/${roomId}`)
  await freelancer.reload()
  await expect(freelancer.locator('main').getByTestId('room-closed')).toContainText(
    'The contract was cancelled, so no new messages can be sent here.',
  )
  await expect(freelancer.locator('main').getByRole('button', { name: 'Send' })).toHaveCount(0)
  await expect(message(freelancer, `Too late ${word}`)).toHaveCount(0)
  await expectNoAxeViolations(freelancer)
  await freelancer.context().close()
})
