import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { startServer } from '#server/index.ts'
import { createTestDatabase, type TestDatabase, type TestDialect } from './databases.ts'

type Running = Awaited<ReturnType<typeof startServer>>

/**
 * A describe block's real server (startServer without the web app) on a SQLite file or a fresh
 * PostgreSQL database, for tests that watch the hubs live: `call` goes over HTTP to it (whose
 * outbox delivers to the hubs) and expects 200; hub connections pushed on `connections` are
 * stopped after the block. Register it before the block's own hooks: its server is started first
 * and, as after-hooks run in reverse, closed last.
 */
export function useLiveServer(
  dialect: TestDialect,
  name: string,
  serverOptions: { bodyIdleMs?: number } = {},
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `workneer-${name}-live-`))
  let testDb: TestDatabase | undefined
  const live = {
    base: '',
    /** The server's DATA_DIR (files under files/). */
    dataDir,
    running: undefined as unknown as Running,
    connections: [] as Array<{ stop(): Promise<void> }>,
    async call(method: string, apiPath: string, token: string, body?: unknown) {
      const response = await fetch(`${live.base}/api/v1/${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      expect(response.status, text).toBe(200)
      return JSON.parse(text)
    },
  }
  beforeAll(async () => {
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
    }
    if (dialect === 'postgres') {
      testDb = await createTestDatabase('postgres')
      env.DATABASE_URL = (testDb.target as { url: string }).url
    }
    live.running = await startServer(loadConfig(env), createLogger('silent'), {
      webApp: false,
      ...serverOptions,
    })
    live.base = `http://127.0.0.1:${live.running.port}`
  }, 60_000)
  afterAll(async () => {
    await Promise.all(live.connections.map((c) => c.stop()))
    await live.running?.close()
    await testDb?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  return live
}
