import type { ServerResponse } from 'node:http'
import type { Connection, Transport } from './connection.ts'

/**
 * One write becomes one event. Each payload line becomes a `data:` line; JSON.stringify never emits
 * raw line breaks, so in practice an event is `data: <records>\r\n\r\n`.
 */
export function formatEvent(data: string): string {
  let out = ''
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\r\n`
  return out + '\r\n'
}

export class ServerSentEventsTransport implements Transport {
  readonly kind = 'ServerSentEvents' as const
  private readonly res: ServerResponse

  constructor(res: ServerResponse, connection: Connection) {
    this.res = res
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-store',
      Pragma: 'no-cache',
      'Content-Encoding': 'identity',
      'X-Accel-Buffering': 'no',
    })
    // Browsers fire `open` (which the client's start() waits for) only once data arrives, so send a comment at once.
    res.write(':\r\n')
    res.socket?.setNoDelay(true)
    // The client ends SSE by dropping the request; that is the disconnect signal.
    res.on('close', () => connection.finish())
  }

  write(data: string): void {
    if (!this.res.writableEnded) this.res.write(formatEvent(data))
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end()
  }

  terminate(): void {
    this.res.destroy()
  }

  drained(): Promise<void> | null {
    if (!this.res.writableNeedDrain || this.res.destroyed) return null
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done)
        this.res.off('close', done)
        resolve()
      }
      this.res.on('drain', done)
      this.res.on('close', done)
    })
  }
}
