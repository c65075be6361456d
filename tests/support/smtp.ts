import { SMTPServer } from 'smtp-server'

// A real SMTP server on loopback that keeps what it receives, for tests that follow mailed links.
export interface ReceivedMail {
  to: string[]
  subject: string
  text: string
  html: string
  raw: string
}

export async function startSmtpServer() {
  const mails: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        mails.push({ ...parseMail(raw), to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()) })
        for (const w of waiters.splice(0)) w()
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first mail to `to` (after `since` mails) that matches, waiting up to `timeoutMs`. */
    async waitFor(
      to: string,
      match: (m: ReceivedMail) => boolean = () => true,
      timeoutMs = 15_000,
      since = 0,
    ): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = mails.slice(since).find((m) => m.to.includes(to.toLowerCase()) && match(m))
        if (found) return found
        if (Date.now() > deadline)
          throw new Error(
            `no mail to ${to} within ${timeoutMs} ms (got ${mails.length}: ${mails.map((m) => `${m.to} "${m.subject}"`).join(', ')})`,
          )
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The first link in a mail's text whose path starts with `path`. */
export function linkIn(mail: ReceivedMail, path: string) {
  const found = [...mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)]
    .map((m) => m[0])
    .find((u) => new URL(u).pathname.startsWith(path))
  if (!found) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`)
  return found
}

function parseMail(raw: string): Omit<ReceivedMail, 'to'> {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/)
  const headers = parseHeaders(head)
  const body = rest.join('\r\n\r\n')
  const parts = leafParts(headers, body)
  const pick = (type: string) => parts.find((p) => p.type.startsWith(type))?.content ?? ''
  return {
    subject: decodeWords(headers.subject ?? ''),
    text: pick('text/plain'),
    html: pick('text/html'),
    raw,
  }
}

function parseHeaders(head: string) {
  const out: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  return out
}

function leafParts(headers: Record<string, string>, body: string): Array<{ type: string; content: string }> {
  const type = headers['content-type'] ?? 'text/plain'
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => {
        const [h, ...b] = p.replace(/^\r?\n/, '').split(/\r?\n\r?\n/)
        return leafParts(parseHeaders(h), b.join('\r\n\r\n'))
      })
  }
  return [
    { type: type.toLowerCase(), content: decodeBody(body, headers['content-transfer-encoding'] ?? '7bit') },
  ]
}

function decodeBody(body: string, encoding: string) {
  const e = encoding.toLowerCase()
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (e === 'quoted-printable') return decodeQp(body)
  return body
}

function decodeQp(s: string) {
  const bytes: number[] = []
  const text = s.replace(/=\r?\n/g, '')
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i], 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeWords(s: string) {
  return s
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQp(text.replace(/_/g, ' ')),
    )
    .trim()
}

/** A header of a received mail as sent (folded lines unfolded), or undefined. */
export function headerOf(mail: ReceivedMail, name: string) {
  const [head = ''] = mail.raw.split(/\r?\n\r?\n/, 1)
  return parseHeaders(head)[name.toLowerCase()]
}
