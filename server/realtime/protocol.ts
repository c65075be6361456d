// JSON hub protocol framing: records are JSON texts terminated by 0x1E (ASCII record separator).

export const RECORD_SEPARATOR = '\x1e'
const RS_BYTE = 0x1e

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const

export interface InvocationMessage {
  type: 1 | 4
  target: string
  arguments: unknown[]
  invocationId?: string
  streamIds?: string[]
}
export interface StreamItemMessage {
  type: 2
  invocationId: string
  item: unknown
}
export interface CompletionMessage {
  type: 3
  invocationId: string
  result?: unknown
  error?: string
}
export interface CancelInvocationMessage {
  type: 5
  invocationId: string
}
export interface CloseMessage {
  type: 7
  error?: string
  allowReconnect?: boolean
}
export interface OtherMessage {
  type: 6 | 8 | 9 | number
}
export type HubMessage =
  | InvocationMessage
  | StreamItemMessage
  | CompletionMessage
  | CancelInvocationMessage
  | CloseMessage
  | OtherMessage

export const PING_RECORD = '{"type":6}' + RECORD_SEPARATOR
export const HANDSHAKE_OK_RECORD = '{}' + RECORD_SEPARATOR

export function frame(message: object): string {
  return JSON.stringify(message) + RECORD_SEPARATOR
}

export function invocationRecord(target: string, args: unknown[]): string {
  return frame({ type: MessageType.Invocation, target, arguments: args })
}

export function completionRecord(
  invocationId: string,
  outcome: { result?: unknown; error?: string },
): string {
  if (outcome.error !== undefined)
    return frame({ type: MessageType.Completion, invocationId, error: outcome.error })
  // `result` must be written for every returned value, falsy ones included; only `undefined` means void.
  if (outcome.result === undefined) return frame({ type: MessageType.Completion, invocationId })
  return frame({ type: MessageType.Completion, invocationId, result: outcome.result })
}

export function streamItemRecord(invocationId: string, item: unknown): string {
  // The client rejects a StreamItem without `item`, so undefined becomes null.
  return frame({ type: MessageType.StreamItem, invocationId, item: item === undefined ? null : item })
}

export function closeRecord(error?: string, allowReconnect?: boolean): string {
  const message: CloseMessage = { type: MessageType.Close }
  if (error) message.error = error
  if (allowReconnect) message.allowReconnect = true
  return frame(message)
}

export class ProtocolError extends Error {}

/**
 * Splits incoming bytes into records. It works on bytes rather than strings because a POST body or
 * frame boundary may fall inside a multi-byte UTF-8 character; 0x1E never occurs inside one.
 */
export class RecordParser {
  private pending: Buffer | null = null
  private readonly maxRecordBytes: number

  constructor(maxRecordBytes: number) {
    this.maxRecordBytes = maxRecordBytes
  }

  /** Returns the complete records in `chunk` (plus any carried-over prefix); throws ProtocolError when one is too large. */
  push(chunk: Buffer): string[] {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk
    this.pending = null
    const records: string[] = []
    let start = 0
    for (;;) {
      const end = data.indexOf(RS_BYTE, start)
      if (end < 0) break
      if (end - start > this.maxRecordBytes) throw this.tooLarge()
      records.push(data.toString('utf8', start, end))
      start = end + 1
    }
    if (start < data.length) {
      if (data.length - start > this.maxRecordBytes) throw this.tooLarge()
      // Copy so a large chunk is not kept alive by a small unfinished tail.
      this.pending = Buffer.from(data.subarray(start))
    }
    return records
  }

  private tooLarge(): ProtocolError {
    return new ProtocolError(`The maximum message size of ${this.maxRecordBytes}B was exceeded.`)
  }
}

export interface HandshakeRequest {
  protocol: string
  version: number
}

/** Validates the handshake record; returns the error text ASP.NET would send, or null when accepted. */
export function checkHandshake(text: string): string | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return 'An unexpected error occurred during connection handshake.'
  }
  if (!value || typeof value !== 'object') return 'An unexpected error occurred during connection handshake.'
  const { protocol, version } = value as Partial<HandshakeRequest>
  if (typeof protocol !== 'string' || typeof version !== 'number') {
    return 'An unexpected error occurred during connection handshake.'
  }
  if (protocol !== 'json') return `The protocol '${protocol}' is not supported.`
  // Version 2 only adds stateful-reconnect messages, which this server never negotiates, so it is accepted like 1.
  if (!Number.isInteger(version) || version < 1 || version > 2) {
    return `The server does not support version ${version} of the '${protocol}' protocol.`
  }
  return null
}

/** Parses and shape-checks one hub message; throws ProtocolError for anything the dispatcher cannot act on safely. */
export function parseMessage(text: string): HubMessage {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ProtocolError('Invalid JSON in hub message.')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ProtocolError('Hub message is not an object.')
  const message = value as Record<string, unknown>
  if (typeof message.type !== 'number') throw new ProtocolError('Hub message has no numeric type.')
  switch (message.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      if (typeof message.target !== 'string' || message.target === '')
        throw new ProtocolError('Invocation without a target.')
      if (message.arguments === undefined) message.arguments = []
      if (!Array.isArray(message.arguments)) throw new ProtocolError('Invocation arguments must be an array.')
      if (
        message.invocationId !== undefined &&
        (typeof message.invocationId !== 'string' || message.invocationId === '')
      ) {
        throw new ProtocolError('Invalid invocation id.')
      }
      if (message.type === MessageType.StreamInvocation && typeof message.invocationId !== 'string') {
        throw new ProtocolError('Stream invocation without an id.')
      }
      if (message.streamIds !== undefined) {
        if (
          !Array.isArray(message.streamIds) ||
          !message.streamIds.every((s) => typeof s === 'string' && s !== '')
        ) {
          throw new ProtocolError('Invalid stream ids.')
        }
      }
      break
    }
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.CancelInvocation:
      if (typeof message.invocationId !== 'string' || message.invocationId === '')
        throw new ProtocolError('Message without an invocation id.')
      break
  }
  return message as unknown as HubMessage
}
