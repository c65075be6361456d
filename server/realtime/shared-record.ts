import * as wsModule from 'ws'

type FrameFn = (data: Buffer, options: object) => Buffer[]
// ws' Sender.frame: a named export of ws' ESM wrapper, a static of the CommonJS export (under vitest).
const loaded = wsModule as unknown as {
  Sender?: { frame?: FrameFn }
  default?: { Sender?: { frame?: FrameFn } }
}
const frameOf: FrameFn | null = loaded.Sender?.frame ?? loaded.default?.Sender?.frame ?? null

/**
 * One hub record going to many connections (toAll, toUser, toGroup…). It is serialised once per
 * send, and for WebSockets it is also framed once: every socket gets the same header and payload
 * buffers, as Socket.IO does for its broadcasts, instead of `ws.send(string)` encoding the text and
 * building a frame again for each connection.
 */
let nextId = 1

export class SharedRecord {
  readonly text: string
  /** Identifies the record within this process, so connections with the same queued records can share one frame. */
  readonly id = nextId++
  private frame: Buffer[] | null = null

  constructor(text: string) {
    this.text = text
  }

  /**
   * The unmasked, final text frame, header and payload in one buffer (one plain write per socket
   * rather than a writev of two), built on first use; null if ws cannot build one.
   */
  wsFrame(): Buffer[] | null {
    if (!frameOf) return null
    return (this.frame ??= [
      Buffer.concat(
        frameOf(Buffer.from(this.text), { fin: true, opcode: 1, mask: false, rsv1: false, readOnly: false }),
      ),
    ])
  }
}

/** One frame holding several whole records (SignalR allows that), or null if ws cannot build one. */
export function frameOfRecords(records: SharedRecord[]): Buffer[] | null {
  if (!frameOf) return null
  return [
    Buffer.concat(
      frameOf(Buffer.from(records.map((r) => r.text).join('')), {
        fin: true,
        opcode: 1,
        mask: false,
        rsv1: false,
        readOnly: false,
      }),
    ),
  ]
}
