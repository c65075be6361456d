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
  mp4: ['mp4', 'm4v'],
  mov: ['mov', 'mp4'],
  webm: ['webm'],
  mp3: ['mp3'],
  ogg: ['ogg', 'oga', 'opus'],
  oga: ['ogg', 'oga', 'opus'],
  wav: ['wav'],
  m4a: ['m4a', 'mp4'],
}
const textual = new Set(['csv', 'txt', 'dxf', 'ifc'])
const mimeOf: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  tif: 'image/tiff',
  bpg: 'image/bpg',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
  dwg: 'image/vnd.dwg',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  dxf: 'image/vnd.dxf',
  ifc: 'application/x-step',
}

export interface Sniffed {
  /** The canonical extension of what the bytes are. */
  type: string
  mime: string
}

// file-type (its readers and signatures) is loaded with the first upload, not at start (decision 136).
const detect = async (head: Uint8Array) => (await import('file-type')).fileTypeFromBuffer(head)

export async function sniff(fileName: string, head: Uint8Array, _kind: UploadKind): Promise<Sniffed | null> {
  const declared = extensionOf(fileName)
  if (textual.has(declared)) return looksLikeText(head) ? { type: declared, mime: mimeOf[declared] } : null
  const detected = isBpg(head) ? 'bpg' : isDwg(head) ? 'dwg' : (await detect(head))?.ext
  if (!detected || !(sameFamily[declared] ?? []).includes(detected)) return null
  // An .m4a is an MP4 container holding sound: its name says it is audio.
  return { type: detected, mime: mimeOf[declared === 'm4a' ? 'm4a' : detected] }
}

const isBpg = (b: Uint8Array) =>
  b.length >= 4 && b[0] === 0x42 && b[1] === 0x50 && b[2] === 0x47 && b[3] === 0xfb
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
