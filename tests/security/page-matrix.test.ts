import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import routes from '../../app/routes.ts'
import { openDatabase, migrateToLatest } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { freePort, spawnServer, type ServerProcess } from '../support/server-process.ts'
import { buildWorld, leaks, type World, type Who } from './world.ts'
import { pageColumns, pageRowFor, type PageCell } from './page-expectations.ts'

// Issue 19 item 1, the web side (decision 256): every route of app/routes.ts opened by each column
// (a visitor, the world's client, a company, its freelancer, a SuperAdmin, another client) through
// the built server (`npm run build` first), with the world's ids in its path. Per cell: the page,
// a redirect to log in, or /auth/unauthorized, as written in page-expectations.ts; and no page
// carries a marker its reader may not read. What a page shows does not depend on the database
// (the API beneath it is proven on both by api-matrix.test.ts), so this runs on SQLite.
// PAGE_DISCOVER=1 prints each route's answers in the table's notation, to review a new row.
type Entry = { file: string; path?: string; index?: boolean; children?: Entry[] }

/** Every route with a path of its own, its parameters named (`projects/details/:projectId`). */
export function routePaths(entries: Entry[] = routes as Entry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const joined = entry.path ? `${parent}/${entry.path}` : parent
    const own = entry.index ? [joined || '/'] : entry.path ? [joined] : []
    return [...own, ...routePaths(entry.children ?? [], joined)]
  })
}

let server: ServerProcess
let base = ''
let world: World
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-secpages-'))

beforeAll(async () => {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') })
  await migrateToLatest(database)
  await seedReference(database.db)
  world = await buildWorld(database, 'secpages', 65, dataDir)
  await world.t.close()
  await database.close()
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  server = await spawnServer(base, {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
  })
}, 120_000)
afterAll(async () => {
  await server?.stop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

function fill(route: string) {
  const { ids, users } = world
  const values: Record<string, string | number> = {
    projectId: ids.projectId,
    complaintId: ids.complaintId,
    requestId: ids.hiringRequestId,
    offerId: ids.offerId,
    roomId: ids.roomId,
    fileId: ids.fileId,
    invoiceId: ids.invoiceId,
    deliverableId: ids.deliverableId,
    transmittalId: ids.transmittalId,
    token: ids.paymentToken,
    account: ids.payoutAccount,
    id: route.startsWith('/profiles/freelancers')
      ? users.freelancer.id
      : route.startsWith('/profiles/companies')
        ? users.company.id
        : route.startsWith('/profiles/clients')
          ? users.client.id
          : 1,
    provider: 'nowhere',
  }
  return route.replace(/:(\w+)/g, (_, name: string) => String(values[name] ?? 1)).replace('*', 'no/such/page')
}

function classify(status: number, location: string | null): PageCell {
  if (status === 200) return 'page'
  if (status === 302 && location?.startsWith('/auth/login')) return 'login'
  if (status === 302 && location === '/auth/unauthorized') return 'unauthorized'
  if (status === 404) return 'not-found'
  return `${status}${location ? ` ${location}` : ''}` as PageCell
}

describe("the pages' guards", { timeout: 300_000 }, () => {
  test('every route has a row', () => {
    const missing = routePaths().filter((r) => !pageRowFor(r))
    expect(
      missing,
      `routes without a row in tests/security/page-expectations.ts:\n${missing.map((r) => `  '${r}': ...,`).join('\n')}`,
    ).toEqual([])
  })

  test("every route answers each role as written and shows nobody else's markers", async () => {
    const failures: string[] = []
    let cells = 0
    for (const route of routePaths()) {
      const row = pageRowFor(route)
      if (!row) continue
      const url = fill(route)
      const got: string[] = []
      for (const column of pageColumns) {
        const who: Who | 'visitor' = column === 'stranger' ? 'client2' : column
        const headers: Record<string, string> =
          who === 'visitor' ? {} : { cookie: `session=${world.users[who].token}` }
        let response: Response
        let text: string
        try {
          response = await fetch(`${base}${url}`, { headers, redirect: 'manual' })
          text = await response.text()
        } catch (error) {
          failures.push(
            `${url} as ${column}: ${(error as Error).message} ${(error as Error).cause ?? ''} ${server.output().slice(-600)}`,
          )
          got.push('error')
          continue
        }
        cells += 1
        const answer = classify(response.status, response.headers.get('location'))
        got.push(answer)
        const expected = row[column]
        if (expected !== 'any' && answer !== expected)
          failures.push(`${url} as ${column}: expected ${expected}, got ${answer}`)
        if (response.status >= 500) failures.push(`${url} as ${column}: ${response.status}`)
        const leaked = leaks(world, who, text, new URL(url, 'http://x').pathname)
        if (leaked.length) failures.push(`${url} as ${column}: the page carries ${leaked.join(', ')}`)
      }
      if (process.env.PAGE_DISCOVER) console.log(`'${route}': '${got.join(' ')}',`)
    }
    console.log(`page guards: ${cells} cells over ${routePaths().length} routes`)
    expect(failures, failures.join('\n')).toEqual([])
  })
})
