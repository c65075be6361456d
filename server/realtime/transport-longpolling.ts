import type { ServerResponse } from 'node:http'
import type { Connection, Transport } from './connection.ts'

const HIGH_WATER = 1 << 20

interface PendingPoll {
  res: ServerResponse
  timer: NodeJS.Timeout
}

/**
 * Server→client data waits in a queue until a poll takes it. A poll returns everything queued as one
 * body, so records are never split; an empty 200 means "poll again", 204 means "this connection is over".
 */
export class LongPollingTransport implements Transport {
  readonly kind = 'LongPolling' as const
  private readonly connection: Connection
  private readonly pollTimeoutMs: number
  private queue: string[] = []
  private queuedBytes = 0
  private poll: PendingPoll | null = null
  private ended = false
  private flushScheduled = false
  private lastPollEnd = Date.now()
  private drainWaiters: (() => void)[] = []

  constructor(connection: Connection, pollTimeoutMs: number) {
    this.connection = connection
    this.pollTimeoutMs = pollTimeoutMs
  }

  handlePoll(res: ServerResponse): void {
    // A newer poll replaces the old one; ASP.NET answers the superseded poll with 204.
    if (this.poll) this.finishPoll(204)
    if (this.queue.length) return this.sendQueued(res)
    if (this.ended) {
      this.respond(res, 204)
      this.connection.finish()
      return
    }
    const timer = setTimeout(() => this.finishPoll(200), this.pollTimeoutMs)
    const poll: PendingPoll = { res, timer }
    this.poll = poll
    res.on('close', () => {
      // The client gave up on the request (stop() aborts it before its DELETE); that is not a disconnect by itself.
      if (this.poll === poll) {
        clearTimeout(timer)
        this.poll = null
        this.lastPollEnd = Date.now()
      }
    })
  }

  write(data: string): void {
    this.queue.push(data)
    this.queuedBytes += data.length
    // Deferred so messages produced in the same turn leave in one response.
    if (this.poll && !this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(() => {
        this.flushScheduled = false
        if (this.poll && this.queue.length) {
          const { res, timer } = this.poll
          clearTimeout(timer)
          this.poll = null
          this.sendQueued(res)
        }
      })
    }
  }

  end(): void {
    this.ended = true
    // Remaining data (e.g. a Close message) leaves with the current or next poll, which also ends the
    // connection; with nothing left the poll gets 204.
    if (!this.poll) return
    const { res, timer } = this.poll
    clearTimeout(timer)
    this.poll = null
    if (this.queue.length) this.sendQueued(res)
    else {
      this.respond(res, 204)
      this.connection.finish()
    }
  }

  terminate(): void {
    this.ended = true
    this.queue = []
    this.queuedBytes = 0
    if (this.poll) this.finishPoll(204)
    this.releaseDrainWaiters()
    this.connection.finish()
  }

  drained(): Promise<void> | null {
    if (this.queuedBytes < HIGH_WATER || this.ended) return null
    return new Promise((resolve) => this.drainWaiters.push(resolve))
  }

  /** When the client last held no poll; null while one is pending. Drives the disconnect timeout. */
  idleSince(): number | null {
    return this.poll ? null : this.lastPollEnd
  }

  private finishPoll(status: 200 | 204): void {
    if (!this.poll) return
    const { res, timer } = this.poll
    clearTimeout(timer)
    this.poll = null
    this.respond(res, status)
  }

  private sendQueued(res: ServerResponse): void {
    const body = this.queue.join('')
    this.queue = []
    this.queuedBytes = 0
    this.releaseDrainWaiters()
    this.lastPollEnd = Date.now()
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-cache, no-store',
    })
    res.end(body)
    if (this.ended) this.connection.finish()
  }

  private respond(res: ServerResponse, status: 200 | 204): void {
    this.lastPollEnd = Date.now()
    if (res.headersSent || res.destroyed) return
    if (status === 204) res.writeHead(204, { 'Cache-Control': 'no-cache, no-store' })
    else
      res.writeHead(200, {
        'Content-Length': 0,
        'Content-Type': 'application/octet-stream',
        'Cache-Control': 'no-cache, no-store',
      })
    res.end()
  }

  private releaseDrainWaiters(): void {
    const waiters = this.drainWaiters
    this.drainWaiters = []
    for (const resolve of waiters) resolve()
  }
}
