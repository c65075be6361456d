import { fileTypeFromBuffer } from 'file-type'
import { extensionOf, type UploadKind } from './rules.ts'

// What a file is, read from its first bytes rather than its name, so a renamed executable is
// refused. Each accepted extension lists the types its bytes may show.
const sameFamily: Record<string, string[]> = {
  png: ['png'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  tiff: ['tif'],
  bpg: ['bpg'],
  pdf: ['pdf'],
  docx: ['docx'],
  xlsx: ['xlsx'],
  zip: ['zip'],
  dwg: ['dwg'],
}
const textual = new Set(['csv', 'txt', 'dxf', 'ifc'])
const mimeOf: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', tif: 'image/tiff', bpg: 'image/bpg', pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', zip: 'application/zip', dwg: 'image/vnd.dwg',
  csv: 'text/csv; charset=utf-8', txt: 'text/plain; charset=utf-8', dxf: 'image/vnd.dxf', ifc: 'application/x-step',
}

export interface Sniffed {
  /** The canonical extension of what the bytes are. */
  type: string
  mime: string
}

export async function sniff(fileName: string, head: Uint8Array, _kind: UploadKind): Promise<Sniffed | null> {
  const declared = extensionOf(fileName)
  if (textual.has(declared)) return looksLikeText(head) ? { type: declared, mime: mimeOf[declared] } : null
  const detected = isBpg(head) ? 'bpg' : isDwg(head) ? 'dwg' : (await fileTypeFromBuffer(head))?.ext
  if (!detected || !(sameFamily[declared] ?? []).includes(detected)) return null
  return { type: detected, mime: mimeOf[detected] }
}

const isBpg = (b: Uint8Array) => b.length >= 4 && b[0] === 0x42 && b[1] === 0x50 && b[2] === 0x47 && b[3] === 0xfb
const isDwg = (b: Uint8Array) => b.length >= 6 && String.fromCharCode(...b.subarray(0, 4)) === 'AC10'

/** UTF-8 text without NUL bytes; a truncated last character at the cut is allowed. */
function looksLikeText(head: Uint8Array) {
  if (head.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)))
    return true
  } catch {
    return false
  }
}
