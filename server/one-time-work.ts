import { spawn } from 'node:child_process'
import { getCompileCacheDir } from 'node:module'
import { loadConfig } from './config.ts'
import { createLogger } from './log.ts'
import { openDatabase, type Db } from './db/database.ts'
import { prepareDatabase } from './db/prepare.ts'
import { createApi } from './api/index.ts'

// Decision 273: a first start's one-time work (the migrations of an empty database, the catalogue,
// the demo marketplace) runs in a short-lived process of its own, which ends before the server
// serves. Run inside the server it left ~20–30 MB resident for good: glibc keeps the heap its peak
// grew (the demo password's 19 MiB argon2 buffer raises malloc's mmap threshold, so what follows
// lands in the brk heap), V8 keeps the pages it grew, and the code it ran stays mapped.
// The child logs to the same stdout, and is stopped with the server: the signal is passed on, and a
// server that dies at once (SIGKILL) takes it along, since it exits when its channel closes.

/** Starts the one-time work in a child process; `stop` passes a signal on and waits for it to end. */
export function oneTimeWorkApart() {
  const cache = getCompileCacheDir()
  const child = spawn(process.execPath, [import.meta.filename], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...(cache ? { NODE_COMPILE_CACHE: cache } : {}) },
  })
  let failure: string | undefined
  child.on('message', (message: { failed?: string }) => (failure = message.failed))
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(failure ?? `its first start's preparation ended by ${signal ?? `exit code ${code}`}`),
          ),
    ),
  )
  return {
    done,
    stop: (signal: NodeJS.Signals) => {
      child.kill(signal)
      return done.catch(() => {})
    },
  }
}

// The child: as the server would do it in-process, then exit.
async function run() {
  let database: Db | undefined
  let stopping = false
  // A terminal's Ctrl-C reaches both processes, and the server passes its signal on: one is enough.
  // As in the server, SQLite's handle closes at once and rolls back the unfinished step; on
  // PostgreSQL the connection going away drops it.
  const stop = () => {
    if (stopping) return
    stopping = true
    const closed = database?.dialect === 'sqlite' ? database.close() : Promise.resolve()
    closed.catch(() => {}).finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // The server is gone (killed outright): end as it did, mid-step, leaving nothing half-done. Its
  // channel closing is heard when the event loop turns; on SQLite, whose steps are long chains of
  // synchronous calls, every statement first asks whether the server still runs (one kill(pid, 0)),
  // so the file is never held for a server that no longer exists.
  const server = process.ppid
  const endWithServer = () => process.kill(process.pid, 'SIGKILL')
  process.on('disconnect', endWithServer)
  const serverGone = () => {
    try {
      process.kill(server, 0)
    } catch {
      endWithServer()
    }
  }
  try {
    const config = loadConfig()
    const log = createLogger(config.logLevel)
    database = await openDatabase(config.database, { beforeStatement: serverGone })
    const api = createApi({ database, log, config })
    try {
      await prepareDatabase({ database, config, log, services: api.services })
    } finally {
      await api.jobs.close()
    }
    await database.close()
    process.exit(0)
  } catch (error) {
    if (stopping) return
    const failed = (error as Error).message
    if (process.send) process.send({ failed }, () => process.exit(1))
    else {
      console.error(failed)
      process.exit(1)
    }
  }
}

if (import.meta.main) await run()
