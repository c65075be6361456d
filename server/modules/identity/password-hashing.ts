import { getCompileCacheDir } from 'node:module'
import path from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'

// Passwords are hashed on one thread of their own (password-thread.ts) rather than in libuv's
// pool of four, which also compresses pages and reads files: a burst of sign-ins there made pages
// wait for their compression behind the hashes, and took both cores of a small server from the
// requests (decision 356). One thread hashes one password at a time, about 40 ms of CPU with the
// 19 MiB profile, so the block it fills stays in that thread's memory and is used again instead of
// being mapped afresh for every hash. The thread starts with the first hash, and keeps the process
// alive only while a hash is waiting.

export interface Argon2Params {
  memory: number
  passes: number
  parallelism: number
  tagLength: number
}
export interface HashJob extends Argon2Params {
  id: number
  password: string
  salt: Uint8Array
}
export type HashResult = { id: number; key: Uint8Array } | { id: number; error: string }

let thread: Worker | null = null
const waiting = new Map<number, { resolve: (key: Buffer) => void; reject: (error: Error) => void }>()
let lastId = 0

// A worker does not inherit the compile cache boot.js turns on: without it, the thread loads Node's
// TypeScript stripper to read its one file, some 17 MB of resident memory for good (decision 366).
function threadOptions(): WorkerOptions | undefined {
  const cache = getCompileCacheDir()
  return cache ? { env: { ...process.env, NODE_COMPILE_CACHE: path.dirname(cache) } } : undefined
}

function start() {
  const worker = new Worker(new URL('./password-thread.ts', import.meta.url), threadOptions())
  worker.unref()
  worker.on('message', (result: HashResult) => {
    const job = waiting.get(result.id)
    waiting.delete(result.id)
    if (waiting.size === 0) worker.unref()
    if ('error' in result) job?.reject(new Error(`argon2 failed: ${result.error}`))
    else job?.resolve(Buffer.from(result.key.buffer, result.key.byteOffset, result.key.byteLength))
  })
  // A thread that failed or ended takes its waiting hashes with it; the next hash starts another.
  const fail = (error: Error) => {
    if (thread === worker) thread = null
    for (const job of waiting.values()) job.reject(error)
    waiting.clear()
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the password thread ended (${code})`)))
  return worker
}

/** argon2id of `password` with `salt`, computed on the password thread. */
export function argon2id(password: string, salt: Buffer, params: Argon2Params): Promise<Buffer> {
  thread ??= start()
  const worker = thread
  const id = ++lastId
  return new Promise<Buffer>((resolve, reject) => {
    waiting.set(id, { resolve, reject })
    worker.ref()
    worker.postMessage({ id, password, salt, ...params } satisfies HashJob)
  })
}

/** Ends the password thread (tests, and a server that stops); the next hash starts another. */
export async function stopPasswordThread() {
  const worker = thread
  thread = null
  await worker?.terminate()
}
