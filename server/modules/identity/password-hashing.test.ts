import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// The password thread reads its TypeScript from Node's compile cache when the server turned it on
// (server/boot.js): without it the thread loads Node's type stripper, some 17 MB kept for good.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-compile-cache-'))
const cacheDir = path.join(dir, 'cache')
const hashing = path.join(import.meta.dirname, 'password-hashing.ts')
const script = path.join(dir, 'start.mjs')
fs.writeFileSync(
  script,
  `
  import { enableCompileCache } from 'node:module'
  enableCompileCache(${JSON.stringify(cacheDir)})
  const { argon2id, stopPasswordThread } = await import(${JSON.stringify(hashing)})
  await argon2id('a passphrase', Buffer.alloc(16), { memory: 64, passes: 1, parallelism: 1, tagLength: 32 })
  await stopPasswordThread()`,
)

// Node's own trace of its compile cache names each file it took from the cache.
const start = () =>
  spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_COMPILE_CACHE: '', NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
  })

describe('the password thread', () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("compiles its file from the server's compile cache, not with the type stripper", () => {
    const first = start()
    expect(first.status, first.stderr).toBe(0)
    const second = start()
    expect(second.status, second.stderr).toBe(0)
    expect(second.stderr).toMatch(
      /retrieving transpile cache for StrippedTypeScript \S*password-thread\.ts\.\.\.success/,
    )
  })
})
