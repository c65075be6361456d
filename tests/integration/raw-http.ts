import net from 'node:net'

// HTTP over a raw socket, for requests no HTTP client would send (bad methods, Host values, framing)
// and for watching when the server answers: the bytes are written in order, and writing stops as
// soon as an answer arrives, so a test can tell "answered before the body was finished".

export interface RawAnswer {
  /** The final status (interim 1xx skipped), or null when the server closed without one. */
  status: number | null
  /** Every 1xx status seen before it (100 Continue). */
  interim: number[]
  head: string
  body: string
  /** How many of the request's bytes were written before the answer came (or the socket closed). */
  written: number
  /** The server closed the connection within the wait. */
  closed: boolean
  ms: number
}

export interface RawOptions {
  /** After the last part, half-close the socket (Node then ends the connection at once), or keep it open as browsers do (default). */
  end?: boolean
  /** How long to wait for an answer after the last byte was written. */
  waitMs?: number
  /** Pause after each part, so the server sees the parts separately. */
  pauseMs?: number
  /** After the answer, how long to wait for the server to close the connection. */
  closeWaitMs?: number
}

export function rawRequest(
  port: number,
  parts: Array<string | Buffer>,
  { end = false, waitMs = 3000, pauseMs = 0, closeWaitMs = 0 }: RawOptions = {},
): Promise<RawAnswer> {
  const started = Date.now()
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true })
    let received = Buffer.alloc(0)
    let written = 0
    let closed = false
    let answered = false
    let timer: NodeJS.Timeout | undefined
    const finish = () => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ ...parse(received), written, closed, ms: Date.now() - started })
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      if (answered || parse(received).status === null) return
      answered = true
      clearTimeout(timer)
      if (closeWaitMs) timer = setTimeout(finish, closeWaitMs)
      else setImmediate(finish)
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      closed = true
      finish()
    })
    socket.on('end', () => {
      closed = true
      if (!closeWaitMs || answered) setTimeout(finish, 20)
    })
    socket.once('connect', async () => {
      for (const part of parts) {
        if (answered || socket.destroyed) break
        const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part
        const flushed = socket.write(bytes)
        written += bytes.length
        if (!flushed)
          await new Promise<void>((resolve) => {
            const done = () => (socket.off('drain', done), socket.off('close', done), resolve())
            socket.on('drain', done).on('close', done)
          })
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs))
      }
      if (end && !socket.destroyed) socket.end()
      if (!answered) timer = setTimeout(finish, waitMs)
    })
  })
}

function parse(bytes: Buffer): Pick<RawAnswer, 'status' | 'interim' | 'head' | 'body'> {
  const interim: number[] = []
  let text = bytes.toString('latin1')
  for (;;) {
    const at = text.indexOf('\r\n\r\n')
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(text)
    if (at < 0 || !match) return { status: null, interim, head: '', body: '' }
    const status = Number(match[1])
    if (status >= 200 || status < 100)
      return {
        status,
        interim,
        head: text.slice(0, at),
        body: Buffer.from(text.slice(at + 4), 'latin1').toString('utf8'),
      }
    interim.push(status)
    text = text.slice(at + 4)
  }
}

/** A request's head: the request line, then the header lines as given (a Host is not added). */
export function head(requestLine: string, headers: Array<[string, string]> | string[]) {
  const lines = headers.map((h) => (Array.isArray(h) ? `${h[0]}: ${h[1]}` : h))
  return `${requestLine}\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`
}

/** One chunk of a chunked body. */
export const chunk = (data: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`),
    Buffer.from(data),
    Buffer.from('\r\n'),
  ])
