import type { WebSocket, RawData } from 'ws'
import type { Connection, Transport } from './connection.ts'
import type { SharedRecord } from './shared-record.ts'
import type { Logger } from './types.ts'

// ws' Sender, used the way engine.io does for pre-encoded broadcasts (websockets/ws#617).
interface RawSender { _state?: number; _queue?: unknown[]; sendFrame?(list: Buffer[], cb?: (error?: Error) => void): void }

// Above this many buffered bytes a stream producer waits, so a slow reader cannot grow memory without bound.
const HIGH_WATER = 1 << 20

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data
  if (Array.isArray(data)) return Buffer.concat(data)
  return Buffer.from(data)
}

export class WebSocketTransport implements Transport {
  readonly kind = 'WebSockets' as const
  private readonly ws: WebSocket
  private readonly closeTimeoutMs: number
  private closeTimer: NodeJS.Timeout | null = null

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
    // A string is sent as one text frame, so a record is never split across messages.
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(data)
  }

  writeShared(record: SharedRecord): void {
    if (this.ws.readyState !== this.ws.OPEN) return
    const sender = (this.ws as unknown as { _sender?: RawSender })._sender
    // Only when nothing is queued in ws (no compression, no pending blob), so frames stay in order.
    const frame = sender?.sendFrame && sender._state === 0 && !sender._queue?.length ? record.wsFrame() : null
    if (frame) sender!.sendFrame!(frame)
    else this.ws.send(record.text)
  }

  end(): void {
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
