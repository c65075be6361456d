import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createApi, type Api } from '../../api/index.ts'
import { loadConfig } from '../../config.ts'
import { createLogger } from '../../log.ts'
import type { Db } from '../../db/database.ts'
import { hashPassword } from '../identity/passwords.ts'
import { Role } from '../identity/permissions.ts'

// Test helpers for the projects API: signed-in users of each kind and JSON/multipart calls
// through the in-process handler.
export const PASSWORD = 'correct horse battery staple'
let passwordHash: Promise<string> | undefined
let seq = 0

export function projectsTestApi(database: Db, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-projects-'))) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir })
  const api: Api = createApi({ database, log: createLogger('silent'), config })
  let ip = 0

  async function raw(method: string, pathname: string, init: { body?: BodyInit; headers?: Record<string, string>; token?: string } = {}) {
    const headers = new Headers(init.headers)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    return api.handler(new Request(`http://127.0.0.1/api/v1/${pathname}`, { method, headers, body: init.body, duplex: 'half' } as RequestInit), { ip: `10.9.${Math.floor(++ip / 250) % 250}.${ip % 250}` })
  }

  async function call(method: string, pathname: string, init: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const response = await raw(method, pathname, { headers, token: init.token, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
    const text = await response.text()
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, json, text }
  }

  async function upload(pathname: string, token: string, fileName: string, bytes: Buffer) {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)]), fileName)
    // Serialised up front: a FormData stream that the server refuses early would be cancelled
    // mid-way in process (undici then reports an unhandled error); a socket just closes.
    const encoded = new Response(form)
    const body = Buffer.from(await encoded.arrayBuffer())
    const response = await raw('POST', pathname, { token, body, headers: { 'content-type': encoded.headers.get('content-type')! } })
    const text = await response.text()
    return { status: response.status, json: text ? JSON.parse(text) : undefined }
  }

  /** An active, verified user of that kind, signed in: its token and id. */
  async function user(kind: 'freelancer' | 'client' | 'company', first = 'Ada', last = 'Roe') {
    const now = new Date().toISOString()
    const email = `${kind}-${++seq}-${Math.random().toString(36).slice(2, 8)}@projects.test`
    passwordHash ??= hashPassword(PASSWORD)
    const row = await database.db
      .insertInto('app_user')
      .values({ email, email_verified: 1, password_hash: await passwordHash, first_name: first, last_name: last, company_name: kind === 'company' ? `${last} Engineering` : null, phone_number: null, language: 'en', account_type: kind, status: 'Active', image_file_id: null, provider: 'local', terms_accepted_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const role = kind === 'freelancer' ? Role.Freelancer : kind === 'company' ? Role.Company : Role.Client
    await database.db.insertInto('user_role').values({ user_id: row.id, role }).execute()
    if (kind === 'freelancer') {
      await database.db.insertInto('freelancer_profile').values({ user_id: row.id, title: 'Structural engineer', created_at: now, updated_at: now }).execute()
    }
    const login = await call('POST', 'identity/login', { body: { email, password: PASSWORD } })
    if (login.status !== 200) throw new Error(`login failed: ${login.text}`)
    return { id: row.id, token: login.json.token as string, email }
  }

  return { api, call, raw, upload, user, close: () => api.jobs.close() }
}

export function tinyPdf() {
  return Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')
}
