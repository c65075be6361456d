import fs from 'node:fs'
import zlib from 'node:zlib'
import os from 'node:os'
import path from 'node:path'
import { createApi, type Api } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import type { Db } from '#server/db/database.ts'
import { hashPassword } from '#server/modules/identity/passwords.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { answerOf } from './api-client.ts'
import { useTestDatabase, type TestDialect } from './databases.ts'
import { enableForTests, totpCode } from '#server/modules/identity/second-factor.ts'

/** The authenticator secret of every test SuperAdmin (base32). */
export const ADMIN_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
export const ADMIN_RECOVERY_CODES = Array.from(
  { length: 20 },
  (_, i) => `module-recovery-${String(i).padStart(2, '0')}`,
)

// The API of a module's tests: active users of each kind signed in through identity/login, and
// JSON and multipart calls through the in-process handler, each from its own client address (so
// no test meets another's rate limit). `name` keeps each module's addresses, emails and files apart.
export const PASSWORD = 'correct horse battery staple'
let passwordHash: Promise<string> | undefined
let seq = 0

export interface ModuleTestOptions {
  /** Names the emails (`…@name.test`) and the temporary data folder. */
  name: string
  /** The second byte of the callers' addresses (10.N.x.y). */
  addressBlock: number
  dataDir?: string
  /** When set, a new freelancer gets a profile with this title (listed in searches). */
  freelancerTitle?: string
  /** More settings for the API (SMTP_URL, PUBLIC_URL…). */
  env?: Record<string, string>
}

export function moduleTestApi(
  database: Db,
  { name, addressBlock, dataDir, freelancerTitle, env }: ModuleTestOptions,
) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `workneer-${name}-`)),
    ...env,
  })
  const api: Api = createApi({ database, log: createLogger('silent'), config })
  let ip = 0

  async function raw(
    method: string,
    pathname: string,
    init: { body?: BodyInit; headers?: Record<string, string>; token?: string } = {},
  ) {
    const headers = new Headers(init.headers)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    return api.handler(
      new Request(`http://127.0.0.1/api/v1/${pathname}`, {
        method,
        headers,
        body: init.body,
        duplex: 'half',
      } as RequestInit),
      { ip: `10.${addressBlock}.${Math.floor(++ip / 250) % 250}.${ip % 250}` },
    )
  }

  async function call(
    method: string,
    pathname: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    return answerOf(
      await raw(method, pathname, {
        headers,
        token: init.token,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    )
  }

  async function upload(pathname: string, token: string, fileName: string, bytes: Buffer, field = 'file') {
    // A whole buffer, as a browser sends it; the server may stop reading early (size, type).
    const boundary = `----workneer-${name}-test`
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const response = await raw('POST', pathname, {
      token,
      body,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    })
    const text = await response.text()
    return { status: response.status, json: text ? JSON.parse(text) : undefined }
  }

  /** An active, verified user of that kind, signed in: its token and id. */
  async function user(kind: 'freelancer' | 'client' | 'company', first = 'Ada', last = 'Roe') {
    const now = new Date().toISOString()
    const email = `${kind}-${++seq}-${Math.random().toString(36).slice(2, 8)}@${name}.test`
    // 1 MiB, not the product's 46: each sign-in verifies with the hash's own parameters, and the
    // module tests sign in thousands of times. The product's profile is proven by the identity
    // tests' registrations and sign-ins and by passwords.test.ts (decision 351).
    passwordHash ??= hashPassword(PASSWORD, { memory: 1024 })
    const row = await database.db
      .insertInto('app_user')
      .values({
        email,
        email_verified: 1,
        password_hash: await passwordHash,
        first_name: first,
        last_name: last,
        company_name: kind === 'company' ? `${last} Engineering` : null,
        phone_number: null,
        language: 'en',
        account_type: kind,
        status: 'Active',
        image_file_id: null,
        provider: 'local',
        terms_accepted_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const role = kind === 'freelancer' ? Role.Freelancer : kind === 'company' ? Role.Company : Role.Client
    await database.db.insertInto('user_role').values({ user_id: row.id, role }).execute()
    if (kind === 'freelancer' && freelancerTitle)
      await database.db
        .insertInto('freelancer_profile')
        .values({ user_id: row.id, title: freelancerTitle, created_at: now, updated_at: now })
        .execute()
    const login = await call('POST', 'identity/login', { body: { email, password: PASSWORD } })
    if (login.status !== 200) throw new Error(`login failed: ${login.text}`)
    return { id: row.id, token: login.json.token as string, email }
  }

  /**
   * A SuperAdmin, signed in as one: with an authenticator app of a known secret (decision 260:
   * administrators must have one), answering the sign-in's second step with its current code.
   */
  async function admin(first = 'Sam', last = 'Support') {
    const made = await user('client', first, last)
    await database.db
      .updateTable('user_role')
      .set({ role: Role.SuperAdmin })
      .where('user_id', '=', made.id)
      .execute()
    await enableForTests(database.db, made.id, ADMIN_TOTP_SECRET, ADMIN_RECOVERY_CODES, config.authSecret)
    const challenge = await call('POST', 'identity/login', {
      body: { email: made.email, password: PASSWORD },
    })
    const login = await call('POST', 'identity/login/second-factor', {
      body: { challenge: challenge.json.challenge, code: totpCode(ADMIN_TOTP_SECRET) },
    })
    if (login.status !== 200) throw new Error(`second step failed: ${login.text}`)
    return { ...made, token: login.json.token as string }
  }

  /**
   * Signs an existing account in again: its token. An account with an authenticator app (an admin
   * from `admin()`) answers the second step with its next recovery code, since the app's code of
   * this half minute was already used by its first sign-in and a code is accepted once.
   */
  const recoveryUsed = new Map<string, number>()
  async function signIn(email: string) {
    const first = await call('POST', 'identity/login', { body: { email, password: PASSWORD } })
    if (first.status !== 200) throw new Error(`login failed: ${first.text}`)
    if (!first.json.twoFactorRequired) return first.json.token as string
    const used = recoveryUsed.get(email) ?? 0
    recoveryUsed.set(email, used + 1)
    const second = await call('POST', 'identity/login/second-factor', {
      body: { challenge: first.json.challenge, code: ADMIN_RECOVERY_CODES[used] },
    })
    if (second.status !== 200) throw new Error(`second step failed: ${second.text}`)
    return second.json.token as string
  }

  return { api, call, raw, upload, user, admin, signIn, close: () => api.jobs.close() }
}

export type ModuleTestApi = ReturnType<typeof moduleTestApi>

/**
 * A describe block's own database and module API (`s.t`), made before its tests and closed and
 * dropped after them (useTestDatabase). `options` may be a function, read when the block starts,
 * for settings of a peer (SMTP, OpenID provider) started in a hook registered before this call;
 * `extend` adds a module's own helpers to the API.
 */
export function useModuleApi<T extends ModuleTestApi = ModuleTestApi>(
  dialect: TestDialect,
  options: ModuleTestOptions | (() => ModuleTestOptions),
  extend: (t: ModuleTestApi, database: Db) => T = (t) => t as T,
) {
  return useTestDatabase(dialect, (database) =>
    extend(moduleTestApi(database, typeof options === 'function' ? options() : options), database),
  )
}

// Small files of each kind the upload checks tell apart.

/** A 1×1 PNG with a text chunk (metadata to be stripped). */
export function tinyPng() {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)])
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', Buffer.from('0000000100000001080600000000', 'hex').subarray(0, 13)),
    chunk('tEXt', Buffer.from('Comment\0GPS 45.1N 7.6E')),
    chunk('IDAT', Buffer.from('789c626001000000ffff0300', 'hex')),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export function tinyPdf() {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  )
}

/** A minimal workbook: a zip (entries stored, not compressed) with the parts that make it an xlsx. */
export function tinyXlsx() {
  const entries: Array<[string, string]> = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ],
    [
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="Rates" sheetId="1"/></sheets></workbook>',
    ],
  ]
  // Little-endian fields: [value, width in bytes].
  const le = (...fields: Array<[number, 2 | 4]>) =>
    Buffer.concat(
      fields.map(([v, w]) => {
        const b = Buffer.alloc(w)
        if (w === 2) b.writeUInt16LE(v)
        else b.writeUInt32LE(v)
        return b
      }),
    )
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const [name, text] of entries) {
    const data = Buffer.from(text)
    const file = Buffer.from(name)
    // version, flags, method (stored), time, date, crc, sizes, name length, extra length
    const common: Array<[number, 2 | 4]> = [
      [20, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [zlib.crc32(data), 4],
      [data.length, 4],
      [data.length, 4],
      [file.length, 2],
      [0, 2],
    ]
    locals.push(le([0x04034b50, 4], ...common), file, data)
    central.push(le([0x02014b50, 4], [20, 2], ...common, [0, 2], [0, 2], [0, 2], [0, 4], [offset, 4]), file)
    offset += 30 + file.length + data.length
  }
  const directory = Buffer.concat(central)
  return Buffer.concat([
    ...locals,
    directory,
    le(
      [0x06054b50, 4],
      [0, 2],
      [0, 2],
      [entries.length, 2],
      [entries.length, 2],
      [directory.length, 4],
      [offset, 4],
      [0, 2],
    ),
  ])
}
