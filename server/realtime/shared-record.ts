import WebSocket from 'ws'

const Sender = (WebSocket as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender

/**
 * One hub record going to many connections (toAll, toUser, toGroup…). It is serialised once per
 * send, and for WebSockets it is also framed once: every socket gets the same header and payload
 * buffers, as Socket.IO does for its broadcasts, instead of `ws.send(string)` encoding the text and
 * building a frame again for each connection.
 */
export class SharedRecord {
  readonly text: string
  private frame: Buffer[] | null = null

  constructor(text: string) {
    this.text = text
  }

  /** The unmasked, final text frame (header and payload), built on first use. */
  wsFrame(): Buffer[] {
    return (this.frame ??= Sender.frame(Buffer.from(this.text), { fin: true, opcode: 1, mask: false, rsv1: false, readOnly: false }))
  }
}
