// A chat message is plain text: nothing in it is ever rendered as HTML. Web addresses in it become
// links (http, https and www. ones; nothing else, so no javascript: or data: address can be made
// clickable). The text is split into parts that the page renders as text nodes and <a> elements.

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string }

const ADDRESS = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi
/** Punctuation that ends a sentence rather than an address ("see https://x.example/a." ). */
const TRAILING = /[.,;:!?)\]}'"]+$/

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of text.matchAll(ADDRESS)) {
    let address = match[0]
    const trailing = address.match(TRAILING)?.[0] ?? ''
    // Keep a closing bracket that closes one opened inside the address (Wikipedia-style links).
    const keep = trailing.startsWith(')') && address.slice(0, -trailing.length).includes('(') ? 1 : 0
    address = address.slice(0, address.length - trailing.length + keep)
    const start = match.index
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    const href = /^www\./i.test(address) ? `https://${address}` : address
    parts.push({ kind: 'link', text: address, href })
    last = start + address.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}
