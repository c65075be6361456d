import { argon2Sync } from 'node:crypto'
import { parentPort } from 'node:worker_threads'
import type { HashJob, HashResult } from './password-hashing.ts'

// The thread that hashes passwords (password-hashing.ts starts it): one argon2 at a time, so the
// block of memory argon2 fills is the same one every time, and no hash takes a thread of libuv's
// pool, where the compression of pages and file reads would wait behind it.
parentPort?.on('message', (job: HashJob) => {
  let result: HashResult
  try {
    const { id, password, salt, ...params } = job
    result = { id, key: argon2Sync('argon2id', { message: password, nonce: salt, ...params }) }
  } catch (error) {
    result = { id: job.id, error: (error as Error).message }
  }
  parentPort!.postMessage(result)
})
