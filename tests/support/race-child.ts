import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '#server/db/database.ts'
import { createApi } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'

// One side of the two-process race test (race-process.test.ts): opens the SQLite file, waits for
// the agreed moment, sends one request to the in-process API and prints the answer's status and body.
const { RACE_FILE, RACE_AT, RACE_METHOD, RACE_PATH, RACE_TOKEN, RACE_BODY } = process.env
const database = await openDatabase({ kind: 'sqlite', file: RACE_FILE! })
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-race-')),
})
const api = createApi({ database, log: createLogger('silent'), config })
await new Promise((r) => setTimeout(r, Math.max(0, Number(RACE_AT) - Date.now())))
const response = await api.handler(
  new Request(`http://127.0.0.1/api/v1/${RACE_PATH}`, {
    method: RACE_METHOD,
    headers: { authorization: `Bearer ${RACE_TOKEN}`, 'content-type': 'application/json' },
    body: RACE_BODY || undefined,
  }),
)
process.stdout.write(JSON.stringify({ status: response.status, body: await response.json() }))
await api.jobs.close()
await database.close()
