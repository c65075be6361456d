import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Endpoint } from '#server/api/contract.ts'
import { buildPath } from '#server/api/contract.ts'
import { dialects } from './databases.ts'
import { useLiveServer } from './live-server.ts'
import { tinyPng } from './module-api.ts'
import { rawRequest, type RawAnswer } from './raw-http.ts'
import { buildWorld, type World } from '../security/world.ts'
import { callerOf, columns, rowFor } from '../security/expectations.ts'
import { defaultParams } from '../security/calls.ts'

// Bodies that end early (issue 19), on the real server over a raw socket, for every endpoint that
// takes a file (found in the API's own list, so a new one is covered) and a JSON one: a body that
// stops short of its Content-Length with the client's side closed, one whose closing boundary never
// comes, and one that stops while the socket stays open. Each gets an answer in the API's error
// shape naming the field it was reading (400; 408 for the stall) while the connection is open, no
// file is left in DATA_DIR/files and no row in stored_file, and the server goes on serving.
const IDLE_MS = 600
const takesFiles = (e: Endpoint) => !!e.multipart || /multipart/i.test(e.summary)

for (const dialect of dialects) {
  describe(`request bodies cut short on ${dialect}`, () => {
    const live = useLiveServer(dialect, `cut-${dialect}`, { bodyIdleMs: IDLE_MS })
    let world: World
    beforeAll(async () => {
      world = await buildWorld(live.running.database, `cut${dialect}`, 66, live.dataDir)
    }, 120_000)
    const port = () => Number(new URL(live.base).port)

    /** Every file under DATA_DIR/files, and the stored_file rows: what a cut body must not add to. */
    const kept = async () => ({
      files: (fs.readdirSync(path.join(live.dataDir, 'files'), { recursive: true }) as string[])
        .filter((f) => fs.statSync(path.join(live.dataDir, 'files', f)).isFile())
        .sort(),
      rows: Number(
        (
          await live.running.database.db
            .selectFrom('stored_file')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    })

    /** The path and the token of a caller the endpoint serves (its matrix row's first 'ok' cell). */
    function target(e: Endpoint) {
      const row = rowFor(e)
      if (!row) throw new Error(`no security matrix row for ${e.method} ${e.path}`)
      const column = columns.find((c) => c !== 'visitor' && c !== 'stranger' && row.cells[c] === 'ok')
      if (!column) throw new Error(`no caller may use ${e.method} ${e.path}`)
      const who = callerOf(world, column, row.owner)
      const params = { ...defaultParams(world), ...row.call?.(world).params }
      const filled = Object.fromEntries(
        [...e.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, params[name]]),
      )
      return {
        path: `/api/v1/${buildPath(e.path, filled)}`,
        token: world.users[who as keyof World['users']].token,
      }
    }

    const boundary = 'cut-short-boundary'
    /** A whole multipart body: a text field, then a file the endpoint takes (a sheet or a picture) in `file` and in `files` (endpoints read one or the other). */
    const multipart = (e: Endpoint) => {
      const [name, bytes] = /sheet|skills\/check/i.test(`${e.path} ${e.summary}`)
        ? ['rates.csv', Buffer.from('Skill,Rate\nSteel,80\n')]
        : ['plan.png', tinyPng()]
      return Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nThe drawings are attached.\r\n`,
        ),
        ...['file', 'files'].map((field) =>
          Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
            ),
            bytes,
            Buffer.from('\r\n'),
          ]),
        ),
        Buffer.from(`--${boundary}--\r\n`),
      ])
    }

    function send(
      at: { path: string; token?: string },
      contentType: string,
      declared: number,
      sent: Buffer,
      end: boolean,
    ) {
      const headers = [
        `POST ${at.path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Content-Type: ${contentType}`,
        `Content-Length: ${declared}`,
        ...(at.token ? [`Authorization: Bearer ${at.token}`] : []),
      ]
      return rawRequest(port(), [`${headers.join('\r\n')}\r\n\r\n`, sent], {
        end,
        waitMs: IDLE_MS * 4,
        closeWaitMs: 3000,
      })
    }

    /** The answer's JSON (chunked or not). */
    function json(answer: RawAnswer) {
      const body = /transfer-encoding: chunked/i.test(answer.head)
        ? answer.body.replace(/(^|\r\n)[0-9a-f]+\r\n/gi, '')
        : answer.body
      return JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1))
    }

    function expectCut(answer: RawAnswer, status: 400 | 408, field: string, message: RegExp) {
      expect(answer.status, answer.head).toBe(status)
      const error = json(answer)
      expect(error).toMatchObject({
        status,
        title: status === 400 ? 'Invalid Info' : 'Request Timeout',
        requestId: expect.any(String),
      })
      expect(error.errors[field]?.[0], JSON.stringify(error)).toMatch(message)
      // The answer came, then the connection ended: nothing waits for the missing bytes.
      expect(answer.closed).toBe(true)
    }

    const fileEndpoints = () => live.running.api.endpoints.filter(takesFiles)
    const only = dialect === 'postgres' ? (e: Endpoint) => /uploadProjectFiles/.test(e.path) : () => true

    test('the endpoints that take files are found (a new one joins this test by itself)', () => {
      expect(fileEndpoints().length).toBeGreaterThanOrEqual(14)
    })

    test('every file endpoint: a body that ends before its Content-Length, a closing boundary that never comes, a body that stalls', async () => {
      const tried: string[] = []
      for (const e of fileEndpoints().filter(only)) {
        tried.push(`${e.method} ${e.path}`)
        const whole = multipart(e)
        const at = target(e)
        const before = await kept()
        const cases: Array<[string, Promise<RawAnswer>, 400 | 408, RegExp]> = []
        // 1. Content-Length promises more than comes, and the client closes its side.
        cases.push([
          'ended',
          send(
            at,
            `multipart/form-data; boundary=${boundary}`,
            whole.length + 500,
            whole.subarray(0, whole.length - 40),
            true,
          ),
          400,
          /ended early/,
        ])
        // 2. Exactly the declared bytes, but the last boundary is missing.
        const noEnd = whole.subarray(0, whole.length - `--${boundary}--\r\n`.length)
        cases.push([
          'no boundary',
          send(at, `multipart/form-data; boundary=${boundary}`, noEnd.length, noEnd, false),
          400,
          /incomplete|ended early/,
        ])
        // 3. The client stops sending and keeps the socket open.
        cases.push([
          'stalled',
          send(
            at,
            `multipart/form-data; boundary=${boundary}`,
            whole.length + 500,
            whole.subarray(0, whole.length - 40),
            false,
          ),
          408,
          /stopped arriving/,
        ])
        for (const [name, pending, status, message] of cases) {
          const answer = await pending
          const error = answer.status ? json(answer) : null
          const named = Object.keys(error?.errors ?? {})[0] ?? '(none)'
          expect(['file', 'files'], `${e.method} ${e.path} ${name}: ${answer.head} ${answer.body}`).toContain(
            named,
          )
          expectCut(answer, status, named, message)
        }
        expect(await kept(), `${e.method} ${e.path} left something behind`).toEqual(before)
      }
      expect(tried.length).toBe(dialect === 'postgres' ? 1 : fileEndpoints().length)
      const health = await fetch(`${live.base}/healthz`)
      expect(health.status).toBe(200)
    }, 120_000)

    test('a JSON body that ends early or stalls: 400 or 408 naming the body', async () => {
      const body = Buffer.from(
        JSON.stringify({ title: 'Foundation review', description: 'Check the foundations' }),
      )
      const at = { path: '/api/v1/projects', token: world.users.client.token }
      const before = await live.running.database.db
        .selectFrom('project')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      expectCut(
        await send(at, 'application/json', body.length + 100, body.subarray(0, 20), true),
        400,
        'body',
        /ended early/,
      )
      expectCut(
        await send(at, 'application/json', body.length + 100, body.subarray(0, 20), false),
        408,
        'body',
        /stopped arriving/,
      )
      // `{}` is valid JSON: a body cut after it must still be refused, not read as an empty object.
      expectCut(
        await send({ path: '/api/v1/identity/login' }, 'application/json', 40, Buffer.from('{}'), true),
        400,
        'body',
        /ended early/,
      )
      expect(
        await live.running.database.db
          .selectFrom('project')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ).toEqual(before)
      // Still serving, and a whole body is read as before.
      const ok = await fetch(`${live.base}/api/v1/identity/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: world.users.client.email, password: 'wrong password entirely' }),
      })
      expect(ok.status).toBe(401)
    }, 60_000)
  })
}
