import type { WebSocket, RawData } from 'ws'
import type { Connection, Transport } from './connection.ts'
import { frameOfRecords, type SharedRecord } from './shared-record.ts'
import type { Logger } from './types.ts'

// ws' Sender, used the way engine.io does for pre-encoded broadcasts (websockets/ws#617).
interface RawSender {
  _state?: number
  _queue?: unknown[]
  sendFrame?(list: Buffer[], cb?: (error?: Error) => void): void
}

// Above this many buffered bytes a stream producer waits, so a slow reader cannot grow memory without bound.
const HIGH_WATER = 1 << 20

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data
  if (Array.isArray(data)) return Buffer.concat(data)
  return Buffer.from(data)
}

// Coalescing: the first shared record a connection gets in an event-loop turn is written at once;
// more records for it in the same turn are queued and written together, as one frame, when the turn
// ends (setImmediate). A burst of sends then costs each socket two writes, not one per record, and
// the client one read and one message. Connections that queued the same records share the frame.
const touched = new Set<WebSocketTransport>()
let flushScheduled = false

function endOfTurn(): void {
  flushScheduled = false
  const frames = new Map<string, Buffer[] | null>()
  const batch = [...touched]
  touched.clear()
  for (const transport of batch) transport.flushQueued(frames)
}

export class WebSocketTransport implements Transport {
  readonly kind = 'WebSockets' as const
  private readonly ws: WebSocket
  private readonly closeTimeoutMs: number
  private closeTimer: NodeJS.Timeout | null = null
  /** A shared record went out directly in this turn. */
  private wroteThisTurn = false
  /** Shared records that came after it in the same turn. */
  private queued: SharedRecord[] | null = null

  constructor(ws: WebSocket, connection: Connection, closeTimeoutMs: number, logger: Logger) {
    this.ws = ws
    this.closeTimeoutMs = closeTimeoutMs
    // Text and binary frames are both parsed: the JSON protocol only ever produces text, but the bytes are the same.
    ws.on('message', (data) => connection.receive(toBuffer(data)))
    ws.on('error', (error) => logger.warn({ err: error, connectionId: connection.id }, 'websocket error'))
    ws.on('close', () => {
      if (this.closeTimer) clearTimeout(this.closeTimer)
      connection.finish()
    })
  }

  write(data: string): void {
    // Records queued earlier in this turn go first, so the order of records is kept.
    if (this.queued) this.flushQueued(null)
    // A string is sent as one text frame, so a record is never split across messages.
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(data)
  }

  writeShared(record: SharedRecord): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    if (this.queued) return void this.queued.push(record)
    if (this.wroteThisTurn) {
      this.queued = [record]
      return
    }
    this.wroteThisTurn = true
    touched.add(this)
    if (!flushScheduled) {
      flushScheduled = true
      setImmediate(endOfTurn)
    }
    this.sendFrame(record.wsFrame(), record.text)
  }

  /** Writes the records queued in this turn as one frame; `frames` shares frames between connections within one flush. */
  flushQueued(frames: Map<string, Buffer[] | null> | null): void {
    this.wroteThisTurn = false
    const queued = this.queued
    this.queued = null
    if (!queued || this.ws.readyState !== this.ws.OPEN) return
    let frame: Buffer[] | null
    if (frames) {
      const key = queued.length === 1 ? String(queued[0].id) : queued.map((r) => r.id).join(',')
      frame = frames.get(key) ?? null
      if (!frames.has(key))
        frames.set(key, (frame = queued.length === 1 ? queued[0].wsFrame() : frameOfRecords(queued)))
    } else {
      frame = frameOfRecords(queued)
    }
    this.sendFrame(frame, queued.map((r) => r.text).join(''))
  }

  private sendFrame(frame: Buffer[] | null, text: string): void {
    const sender = (this.ws as unknown as { _sender?: RawSender })._sender
    // The pre-built frame only when nothing is queued inside ws (no compression, no pending blob), so frames stay in order.
    if (frame && sender?.sendFrame && sender._state === 0 && !sender._queue?.length) sender.sendFrame(frame)
    else this.ws.send(text)
  }

  end(): void {
    if (this.queued) this.flushQueued(null)
    if (this.ws.readyState === this.ws.CLOSED) return
    this.ws.close(1000)
    // ASP.NET's WebSocketOptions.CloseTimeout: a peer that never answers the close frame is cut off.
    this.closeTimer = setTimeout(() => this.ws.terminate(), this.closeTimeoutMs)
    this.closeTimer.unref()
  }

  terminate(): void {
    this.ws.terminate()
  }

  drained(): Promise<void> | null {
    if (this.ws.bufferedAmount < HIGH_WATER || this.ws.readyState !== this.ws.OPEN) return null
    return new Promise((resolve) => {
      const timer = setInterval(() => {
        if (this.ws.bufferedAmount < HIGH_WATER || this.ws.readyState !== this.ws.OPEN) {
          clearInterval(timer)
          resolve()
        }
      }, 10)
    })
  }
}
