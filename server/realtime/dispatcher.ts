import type { Connection, ConnectionHooks } from './connection.ts'
import {
  MessageType,
  ProtocolError,
  checkHandshake,
  completionRecord,
  frame,
  parseMessage,
} from './protocol.ts'
import type { CompletionMessage, HubMessage, InvocationMessage, StreamItemMessage } from './protocol.ts'
import { HubError, errorText, isAsyncIterable, isThenable, type HubRuntime } from './hub-runtime.ts'
import { completeInvocation, sendStream } from './invocation-results.ts'
import type { HubContext, Logger } from './types.ts'
import { UploadStream } from './upload-stream.ts'

export { HubError, createHubRuntime, type HubRuntime } from './hub-runtime.ts'

/**
 * The hub side of one connection: handshake, then messages. Invocations run one at a time in arrival
 * order (ASP.NET's default of one parallel invocation per client); streams run in the background once
 * started. Pings, cancellations and upload-stream items act on arrival, so a running method cannot
 * block them.
 */
export class HubSession implements ConnectionHooks {
  private readonly conn: Connection
  private readonly runtime: HubRuntime
  private readonly logger: Logger
  private readonly onFinished: () => void
  private readonly lifetime = new AbortController()
  private readonly ctx: HubContext
  private handshake: 'waiting' | 'running' | 'done' = 'waiting'
  private beforeHandshake: string[] = []
  private queue: HubMessage[] = []
  private draining = false
  // Created on first use: most connections never stream, upload or wait for a client result, and
  // an empty Map still costs a hash table per connection.
  private streams: Map<string, AbortController> | null = null
  private uploads: Map<string, UploadStream> | null = null
  private registration: Promise<void> | null = null
  private connected: Promise<boolean> | null = null
  private resolveDone!: () => void
  /** Settles after the transport is done and onDisconnected has run. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve))
  private hubEnded: Promise<void> | null = null
  /** Server-to-client invocations waiting for the client's result, by invocation id. */
  private results: Map<
    string,
    { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout }
  > | null = null
  private nextResultId = 0
  private readonly resultTimeoutMs: number

  constructor(
    conn: Connection,
    runtime: HubRuntime,
    logger: Logger,
    onFinished: () => void,
    resultTimeoutMs = 30_000,
  ) {
    this.conn = conn
    this.resultTimeoutMs = resultTimeoutMs
    this.runtime = runtime
    this.logger = logger
    this.onFinished = onFinished
    const router = runtime.router
    let items: Map<string, unknown> | null = null
    this.ctx = {
      connectionId: conn.id,
      user: conn.user,
      address: conn.address,
      hub: router.handle,
      groups: {
        add: (name) => router.addToGroup(conn, name),
        remove: (name) => router.removeFromGroup(conn, name),
      },
      signal: this.lifetime.signal,
      get items() {
        return (items ??= new Map())
      },
      invoke: (target, ...args) => this.invokeClient(target, args),
    }
  }

  /**
   * A client result (HubProtocol.md: an Invocation with an invocationId sent to the client, which
   * answers with a Completion). Ids start with 's' so they never meet the client's own ids, which
   * are decimal (its upload streams share our Completion handling).
   */
  invokeClient(target: string, args: unknown[]): Promise<unknown> {
    if (this.conn.closed) return Promise.reject(new Error('The connection is closed.'))
    const invocationId = `s${this.nextResultId++}`
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.results?.delete(invocationId)
        reject(new Error(`The client did not answer '${target}' within ${this.resultTimeoutMs} ms.`))
      }, this.resultTimeoutMs)
      timer.unref()
      this.results ??= new Map()
      this.results.set(invocationId, { resolve, reject, timer })
      this.conn.send(frame({ type: MessageType.Invocation, invocationId, target, arguments: args }))
    })
  }

  records(records: string[]): void {
    for (const text of records) {
      if (this.conn.closed) return
      if (this.handshake === 'waiting') {
        this.handshake = 'running'
        this.conn.handshakeStarted = true
        void this.runHandshake(text)
      } else if (this.handshake === 'running') {
        this.beforeHandshake.push(text)
      } else {
        this.accept(text)
      }
    }
  }

  protocolError(error: ProtocolError): void {
    this.logger.warn({ connectionId: this.conn.id, reason: error.message }, 'hub protocol error')
    // Before the handshake reply the client can only understand a handshake error.
    this.conn.closeWithError(
      this.conn.handshaken ? `Connection closed with an error. ${error.message}` : 'Handshake was canceled.',
      false,
    )
  }

  closed(): void {
    this.lifetime.abort()
    for (const stream of this.streams?.values() ?? []) stream.abort()
    for (const upload of this.uploads?.values() ?? []) upload.fail(new Error('The connection was closed.'))
    this.uploads?.clear()
    for (const pending of this.results?.values() ?? []) {
      clearTimeout(pending.timer)
      pending.reject(new Error('The connection was closed before the client answered.'))
    }
    this.results?.clear()
    this.queue = []
    this.beforeHandshake = []
    this.hubEnded = this.endHub()
  }

  finished(): void {
    void (this.hubEnded ?? Promise.resolve()).finally(() => {
      this.onFinished()
      this.resolveDone()
    })
  }

  private async runHandshake(text: string): Promise<void> {
    const error = checkHandshake(text)
    if (error) return this.conn.close(frame({ error }))
    this.registration = this.runtime.router.register(this.conn)
    this.connected = (async () => {
      try {
        await this.registration
        if (this.conn.closed) return false
        await this.runtime.definition.onConnected?.(this.ctx)
        return true
      } catch (err) {
        this.logger.error(
          { err, connectionId: this.conn.id, hub: this.runtime.definition.name },
          'onConnected failed',
        )
        this.conn.close(frame({ error: 'An unexpected error occurred during connection handshake.' }))
        return false
      }
    })()
    // onConnected runs before the reply, so when the client's start() resolves its groups are in place;
    // anything the hook sends is held by the connection until the reply is out.
    if (!(await this.connected) || this.conn.closed) return
    this.conn.completeHandshake()
    this.handshake = 'done'
    const pending = this.beforeHandshake
    this.beforeHandshake = []
    for (const text of pending) this.accept(text)
  }

  private async endHub(): Promise<void> {
    try {
      if (this.registration) {
        await this.registration.catch(() => {})
        this.runtime.router.unregister(this.conn)
      }
      if (this.connected && (await this.connected)) await this.runtime.definition.onDisconnected?.(this.ctx)
    } catch (err) {
      this.logger.error(
        { err, connectionId: this.conn.id, hub: this.runtime.definition.name },
        'onDisconnected failed',
      )
    }
  }

  private accept(text: string): void {
    let message: HubMessage
    try {
      message = parseMessage(text)
    } catch (error) {
      if (error instanceof ProtocolError) return this.protocolError(error)
      throw error
    }
    switch (message.type) {
      case MessageType.Ping:
        return
      case MessageType.CancelInvocation:
        this.streams?.get((message as { invocationId: string }).invocationId)?.abort()
        return
      case MessageType.StreamItem: {
        const { invocationId, item } = message as StreamItemMessage
        this.uploads?.get(invocationId)?.push(item)
        return
      }
      case MessageType.Completion: {
        // A client result, or the end of an upload stream.
        const { invocationId, error, result } = message as CompletionMessage
        const pending = this.results?.get(invocationId)
        if (pending) {
          this.results?.delete(invocationId)
          clearTimeout(pending.timer)
          if (error !== undefined) pending.reject(new HubError(error))
          else pending.resolve(result)
          return
        }
        const upload = this.uploads?.get(invocationId)
        if (!upload) return
        this.uploads?.delete(invocationId)
        if (error) upload.fail(new Error(error))
        else upload.end()
        return
      }
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
      case MessageType.Close:
        this.queue.push(message)
        void this.drain()
        return
      default:
        // Ack, Sequence (stateful reconnect is never negotiated) and unknown types are ignored.
        return
    }
  }

  private async drain(): Promise<void> {
    if (this.draining) return
    this.draining = true
    try {
      while (this.queue.length && !this.conn.closed) {
        const message = this.queue.shift()!
        if (message.type === MessageType.Close) {
          // The client said goodbye: no Close goes back.
          this.conn.close()
          return
        }
        await this.invoke(message as InvocationMessage)
      }
    } finally {
      this.draining = false
    }
  }

  private async invoke(message: InvocationMessage): Promise<void> {
    const { target, invocationId } = message
    const streaming = message.type === MessageType.StreamInvocation
    const method = this.runtime.methods.get(target.toLowerCase())
    if (!method) {
      if (invocationId)
        this.conn.send(completionRecord(invocationId, { error: `Unknown hub method '${target}'` }))
      else this.logger.warn({ connectionId: this.conn.id, target }, 'unknown hub method')
      return
    }
    if (streaming && this.streams?.has(invocationId!)) {
      this.conn.send(
        completionRecord(invocationId!, { error: `Invocation ID '${invocationId}' is already in use.` }),
      )
      return
    }
    const args = [...message.arguments]
    for (const streamId of message.streamIds ?? []) {
      const upload = new UploadStream()
      this.uploads ??= new Map()
      this.uploads.set(streamId, upload)
      args.push(upload)
    }
    let ctx = this.ctx
    let cancel: AbortController | null = null
    if (streaming) {
      cancel = new AbortController()
      this.streams ??= new Map()
      this.streams.set(invocationId!, cancel)
      ctx = { ...this.ctx, signal: AbortSignal.any([cancel.signal, this.lifetime.signal]) }
    }
    let result: unknown
    try {
      result = method(ctx, ...args)
      if (isThenable(result)) result = await result
    } catch (error) {
      if (cancel) this.streams?.delete(invocationId!)
      this.report(error, target)
      if (invocationId) {
        this.conn.send(
          completionRecord(invocationId, {
            error: errorText(`An unexpected error occurred invoking '${target}' on the server.`, error),
          }),
        )
      }
      return
    }
    if (!streaming) return completeInvocation(this.conn, message, result)
    if (!isAsyncIterable(result)) {
      this.streams?.delete(invocationId!)
      this.conn.send(
        completionRecord(invocationId!, {
          error: `The client attempted to invoke the non-streaming '${target}' method with a streaming invocation.`,
        }),
      )
      return
    }
    const stream = {
      id: invocationId!,
      iterable: result,
      stopped: AbortSignal.any([cancel!.signal, this.lifetime.signal]),
    }
    void sendStream(
      this.conn,
      stream,
      (error) => this.report(error, target),
      () => this.streams?.delete(invocationId!),
    )
  }

  private report(error: unknown, target: string): void {
    if (error instanceof HubError) return
    this.logger.error(
      { err: error, connectionId: this.conn.id, hub: this.runtime.definition.name, target },
      'hub method failed',
    )
  }
}
