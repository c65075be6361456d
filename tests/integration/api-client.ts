import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createApi } from '#server/api/index.ts'
import { errorCodes } from '#server/api/errors.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import type { Db } from '#server/db/database.ts'
import { useTestDatabase, type TestDialect } from './databases.ts'

/**
 * An answer of the API read whole: its status, headers, text, and JSON when the text is JSON. An
 * error answer without a known code fails the test that met it, so every module's tests check
 * that each error they provoke carries one (server/api/errors.ts).
 */
export async function answerOf(response: Response) {
  const text = await response.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (response.status >= 400 && json?.title !== undefined && !errorCodes.includes(json.code))
    throw new Error(`an API error without a known code: ${text.slice(0, 300)}`)
  return { status: response.status, headers: response.headers, text, json }
}

// The API as loaders see it: a web Request handed to the in-process handler.
export function testApi(database: Db) {
  // Files go to a temporary folder, never into the working tree's data/.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-api-')),
  })
  const api = createApi({ database, log: createLogger('silent'), config })
  async function request(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers = new Headers(init.headers)
    if (init.body !== undefined) headers.set('content-type', 'application/json')
    return answerOf(
      await api.handler(
        new Request(`http://test/api/v1/${path}`, {
          method,
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        }),
      ),
    )
  }
  return {
    api,
    request,
    get: (path: string, headers?: Record<string, string>) => request('GET', path, { headers }),
  }
}

/**
 * A fresh, migrated and seeded database of `dialect` with the API over it, for the tests of one
 * describe block: opened before them, closed and dropped after. Read its fields inside the tests.
 */
export function useTestApi(dialect: TestDialect) {
  const s = useTestDatabase(dialect, (database) => {
    const api = testApi(database)
    return { ...api, close: () => api.api.jobs.close() }
  })
  return {
    get database() {
      return s.database
    },
    get api() {
      return s.t
    },
  }
}
