/**
 * A client-to-server stream (the client passed a Subject as an argument). Items are buffered until
 * the hub method reads them.
 */
export class UploadStream implements AsyncIterable<unknown> {
  private items: unknown[] = []
  private ended = false
  private error: Error | null = null
  private wake: (() => void) | null = null

  push(item: unknown): void {
    if (this.ended) return
    this.items.push(item)
    this.signal()
  }

  end(): void {
    this.ended = true
    this.signal()
  }

  fail(error: Error): void {
    if (this.ended) return
    this.error = error
    this.ended = true
    this.signal()
  }

  private signal(): void {
    const wake = this.wake
    this.wake = null
    wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<unknown> {
    for (;;) {
      if (this.items.length) {
        yield this.items.shift()
        continue
      }
      if (this.error) throw this.error
      if (this.ended) return
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
  }
}
