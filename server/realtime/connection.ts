import type { HubUser, TransportName } from './types.ts'
import { HANDSHAKE_OK_RECORD, ProtocolError, RecordParser, closeRecord, frame } from './protocol.ts'
import type { SharedRecord } from './shared-record.ts'

/** What a connection needs from whichever transport carries it. Every write is one or more whole records. */
export interface Transport {
  readonly kind: TransportName
  write(data: string): void
  /** A record shared by many connections; transports that can reuse its encoding do (WebSockets). */
  writeShared?(record: SharedRecord): void
  /** Finish after pending data is out; the transport calls connection.finish() when it is done. */
  end(): void
  /** Drop at once (shutdown deadline). */
  terminate(): void
  /** A promise while the outgoing buffer is over its high-water mark, so streams can wait. */
  drained(): Promise<void> | null
  /** True while the transport still shows signs of life; long polling uses it for the disconnect timeout. */
  idleSince?(): number | null
}

export interface ConnectionHooks {
  records(records: string[]): void
  protocolError(error: ProtocolError): void
  /** The hub-level end; runs once, whatever closed the connection. */
  closed(): void
  /** The transport is done; the server forgets the token. */
  finished(): void
  /** A client result: invoke a client method and wait for what it returns. */
  invokeClient?(target: string, args: unknown[]): Promise<unknown>
}

/**
 * Transport-independent state of one negotiated connection: timestamps for keep-alive, the
 * incoming record parser, and the buffer for hub messages produced before the handshake reply.
 */
export class Connection {
  readonly id: string
  readonly token: string
  readonly hubKey: string
  readonly user: HubUser | null
  /** The client's address when it connected (TRUST_PROXY decides whether a proxy's word is taken). */
  readonly address: string
  readonly createdAt = Date.now()
  transport: Transport | null = null
  /** A WebSocket upgrade is being authorised; a second one gets 409. */
  upgrading = false
  /** A POST body is being read; a concurrent POST gets 409 so records cannot interleave. */
  posting = false
  attachedAt = 0
  lastReceived = 0
  lastSent = 0
  /** The client's handshake record arrived; the handshake timeout no longer applies. */
  handshakeStarted = false
  handshaken = false
  closed = false
  finishedAt = 0
  private readonly parser: RecordParser
  private early: string[] | null = []
  hooks: ConnectionHooks | null = null

  constructor(init: {
    id: string
    token: string
    hubKey: string
    user: HubUser | null
    maxRecordBytes: number
    address?: string
  }) {
    this.id = init.id
    this.token = init.token
    this.hubKey = init.hubKey
    this.user = init.user
    this.address = init.address ?? ''
    this.parser = new RecordParser(init.maxRecordBytes)
  }

  get finished(): boolean {
    return this.finishedAt !== 0
  }

  attach(transport: Transport): void {
    this.transport = transport
    this.attachedAt = this.lastReceived = this.lastSent = Date.now()
  }

  /**
   * Parses incoming bytes. With `held`, complete records are collected there instead of being
   * dispatched, so a POST can be answered before its records are acted on (see deliver()).
   */
  receive(chunk: Buffer, held?: string[]): void {
    if (this.closed) return
    this.lastReceived = Date.now()
    let records: string[]
    try {
      records = this.parser.push(chunk)
    } catch (error) {
      if (error instanceof ProtocolError) return this.hooks?.protocolError(error)
      throw error
    }
    if (!records.length) return
    if (held) held.push(...records)
    else this.hooks?.records(records)
  }

  deliver(records: string[]): void {
    if (records.length && !this.closed) this.hooks?.records(records)
  }

  /** Hub traffic; held back until the handshake reply has gone out, because the client must see that first. */
  send(record: string): void {
    if (this.closed) return
    if (this.early) {
      this.early.push(record)
      return
    }
    this.writeRaw(record)
  }

  /** Writes the handshake reply, then whatever the hub produced meanwhile. */
  completeHandshake(): void {
    if (this.closed) return
    const early = this.early ?? []
    this.early = null
    this.handshaken = true
    this.writeRaw(HANDSHAKE_OK_RECORD + early.join(''))
  }

  /** Fan-out: the same record to many connections, written without re-encoding where the transport allows. */
  sendShared(record: SharedRecord, now: number): void {
    if (this.closed) return
    if (this.early) {
      this.early.push(record.text)
      return
    }
    if (!this.transport || this.finished) return
    this.lastSent = now
    if (this.transport.writeShared) this.transport.writeShared(record)
    else this.transport.write(record.text)
  }

  writeRaw(data: string): void {
    if (!this.transport || this.finished) return
    this.lastSent = Date.now()
    this.transport.write(data)
  }

  /**
   * Ends the connection at the hub level. `finalRecord` (a Close message or a handshake error) is
   * written first; the transport then drains and reports back through finish().
   */
  close(finalRecord?: string): void {
    if (this.closed) return
    if (finalRecord) this.writeRaw(finalRecord)
    this.closed = true
    this.early = null
    this.hooks?.closed()
    if (this.transport) this.transport.end()
    else this.finish()
  }

  /**
   * Server-initiated close with a reason. After the handshake that is a Close message; before it the
   * client only understands a handshake error.
   */
  closeWithError(error: string, allowReconnect: boolean): void {
    if (this.handshaken) this.close(closeRecord(error, allowReconnect))
    else if (this.transport) this.close(frame({ error }))
    else this.close()
  }

  /**
   * Server-initiated close after which the client should come back (a restart): Close with
   * allowReconnect and no error, which the client would report as a failure. Before the handshake
   * the client understands only a handshake error, so it gets one.
   */
  closeToReconnect(): void {
    if (this.handshaken) this.close(closeRecord(undefined, true))
    else this.closeWithError('The server is shutting down.', true)
  }

  /** Called by the transport when it is done, including when the client went away first. */
  finish(): void {
    if (this.finished) return
    this.finishedAt = Date.now()
    if (!this.closed) {
      this.closed = true
      this.early = null
      this.hooks?.closed()
    }
    this.hooks?.finished()
  }
}
