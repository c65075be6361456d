import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// Issue 39 item 11: `npm run admin:create` without SMTP prints the link that chooses the new
// SuperAdmin's password, and that link is on the site people reach (PUBLIC_URL), not on
// localhost:3000; without PUBLIC_URL it is on the port the server listens on. The real CLI, on a
// SQLite file (the link does not depend on the database).
const root = path.resolve(import.meta.dirname, '../..')
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
})

function adminCreate(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-admin-create-'))
  dirs.push(dataDir)
  const run = spawnSync(
    process.execPath,
    ['server/cli/admin-create.ts', '--email', 'ops@example.com', '--first-name', 'Olga'],
    { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env } },
  )
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

describe('npm run admin:create', () => {
  it('prints the password link on PUBLIC_URL, whatever port the server listens on', () => {
    const out = adminCreate({ PUBLIC_URL: 'https://workneer.example/', PORT: '3000' })
    expect(out).toContain('Created SuperAdmin #')
    expect(out).toMatch(/\nhttps:\/\/workneer\.example\/auth\/reset-password\?token=[\w-]{20,}\n/)
    expect(out).not.toContain('localhost')
  })

  it('without PUBLIC_URL, prints it on the port the server listens on', () => {
    expect(adminCreate({ PORT: '4123' })).toMatch(/\nhttp:\/\/localhost:4123\/auth\/reset-password\?token=/)
  })
})
