import { describe, expect, it } from 'vitest'
import { createKeptSplice } from './kept-splice.server'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('kept parts spliced into a document (decision 282)', () => {
  it('puts each part where its marker is, in the document’s order, whatever order they were kept in', () => {
    const parts = createKeptSplice('n0nce')
    const footer = parts.splice([bytes('<p>pied · Русский</p>')])
    const header = parts.splice([bytes('<a href="'), bytes('/p?q=1&amp;x'), bytes('">Home</a>')])
    const document = `<header>${header}</header><main>ok</main><footer>${footer}</footer>`
    expect(parts.assemble(Buffer.from(document)).toString('utf8')).toBe(
      '<header><a href="/p?q=1&amp;x">Home</a></header><main>ok</main><footer><p>pied · Русский</p></footer>',
    )
  })

  it('leaves out a part whose marker was not written, and a marker of another document as it is', () => {
    const parts = createKeptSplice('mine')
    parts.splice([bytes('<b>never written</b>')])
    const written = parts.splice([bytes('<i>kept</i>')])
    const forged = '<!--kept:theirs:0-->'
    expect(parts.assemble(Buffer.from(`${forged}<div>${written}</div>`)).toString('utf8')).toBe(
      `${forged}<div><i>kept</i></div>`,
    )
  })

  it('gives back a document without parts as it is', () => {
    const document = Buffer.from('<p>plain</p>')
    expect(createKeptSplice('n').assemble(document)).toBe(document)
  })
})
