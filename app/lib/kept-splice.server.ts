// The bytes of kept parts (app/lib/kept-markup.tsx) put into a document where React wrote their
// markers (decision 282). React encodes every string it writes; a kept part is several KB of HTML
// that is the same on every page, so it is encoded once and copied in here instead. A marker holds
// the page's CSP nonce, which no stored content can know in advance.
export function createKeptSplice(token: string) {
  const parts: Uint8Array[][] = []
  const markerOf = (i: number) => `<!--kept:${token}:${i}-->`
  return {
    /** Keeps a part's bytes for this document; React writes the marker it returns in their place. */
    splice(pieces: Uint8Array[]) {
      parts.push(pieces)
      return markerOf(parts.length - 1)
    },
    /** The document with every part's bytes where its marker is (a part not written, as in an aborted render, is left out). */
    assemble(document: Buffer<ArrayBuffer>) {
      if (!parts.length) return document
      // React writes the markers in the order the parts were rendered, nearly always the
      // document's: each is looked for after the one before, and from the start only if not there.
      let after = 0
      const found = parts
        .map((pieces, i) => {
          const marker = markerOf(i)
          let at = document.indexOf(marker, after, 'latin1')
          if (at < 0) at = document.indexOf(marker, 0, 'latin1')
          if (at >= 0) after = at + marker.length
          return { at, end: at + marker.length, pieces }
        })
        .filter((f) => f.at >= 0)
        .sort((a, b) => a.at - b.at)
      const out: Uint8Array[] = []
      let from = 0
      for (const f of found) {
        out.push(document.subarray(from, f.at), ...f.pieces)
        from = f.end
      }
      out.push(document.subarray(from))
      return Buffer.concat(out)
    },
  }
}
