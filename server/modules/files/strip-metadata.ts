// Removes metadata that can reveal where and by whom a photo was taken (EXIF with GPS positions,
// XMP, IPTC, comments) before an image is stored. The pixels are never decoded or re-encoded.
export function stripMetadata(type: string, bytes: Buffer): Buffer {
  if (type === 'jpg') return stripJpeg(bytes)
  if (type === 'png') return stripPng(bytes)
  if (type === 'tif') return stripTiffGps(bytes)
  if (type === 'bpg') return stripBpg(bytes)
  return bytes // GIF carries no location metadata
}

// JPEG: keep JFIF (APP0), ICC profiles (APP2) and Adobe colour info (APP14); drop every other
// APPn segment and comments, then copy the compressed image data from SOS on unchanged.
function stripJpeg(b: Buffer) {
  const parts: Buffer[] = [b.subarray(0, 2)]
  let i = 2
  while (i + 4 <= b.length && b[i] === 0xff) {
    const marker = b[i + 1]
    if (marker === 0xda) break // start of scan: the rest is image data
    const length = b.readUInt16BE(i + 2)
    const isApp = marker >= 0xe0 && marker <= 0xef
    const keep = !(isApp && marker !== 0xe0 && marker !== 0xe2 && marker !== 0xee) && marker !== 0xfe
    if (keep) parts.push(b.subarray(i, i + 2 + length))
    i += 2 + length
  }
  parts.push(b.subarray(i))
  return Buffer.concat(parts)
}

const pngDropped = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME'])
function stripPng(b: Buffer) {
  const parts: Buffer[] = [b.subarray(0, 8)]
  let i = 8
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i)
    const type = b.toString('latin1', i + 4, i + 8)
    const end = i + 12 + length
    if (!pngDropped.has(type)) parts.push(b.subarray(i, end))
    i = end
  }
  return Buffer.concat(parts)
}

// TIFF: blank the GPS sub-directory and its values, and unlink it from the first directory.
function stripTiffGps(input: Buffer) {
  const b = Buffer.from(input)
  const le = b.toString('latin1', 0, 2) === 'II'
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o))
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o))
  const sizes: Record<number, number> = {
    1: 1,
    2: 1,
    3: 2,
    4: 4,
    5: 8,
    6: 1,
    7: 1,
    8: 2,
    9: 4,
    10: 8,
    11: 4,
    12: 8,
  }
  const ifd0 = u32(4)
  if (ifd0 + 2 > b.length) return b
  const count = u16(ifd0)
  for (let e = 0; e < count; e++) {
    const entry = ifd0 + 2 + e * 12
    if (u16(entry) !== 0x8825) continue
    const gps = u32(entry + 8)
    if (gps + 2 <= b.length) {
      const n = u16(gps)
      for (let g = 0; g < n; g++) {
        const ge = gps + 2 + g * 12
        if (ge + 12 > b.length) break
        const bytes = (sizes[u16(ge + 2)] ?? 1) * u32(ge + 4)
        if (bytes > 4 && u32(ge + 8) + bytes <= b.length) b.fill(0, u32(ge + 8), u32(ge + 8) + bytes)
      }
      b.fill(0, gps, Math.min(b.length, gps + 2 + n * 12 + 4))
    }
    // Remove the entry: shift the later entries and the next-directory offset up by one slot.
    b.copy(b, entry, entry + 12, ifd0 + 2 + count * 12 + 4)
    b.fill(0, ifd0 + 2 + (count - 1) * 12 + 4, ifd0 + 2 + count * 12 + 4)
    if (le) b.writeUInt16LE(count - 1, ifd0)
    else b.writeUInt16BE(count - 1, ifd0)
    break
  }
  return b
}

// BPG: drop the optional extension block (EXIF, ICC, XMP) and clear its flag.
function stripBpg(b: Buffer) {
  if (!(b[5] & 0x08)) return b
  let i = 6
  const ue7 = () => {
    let value = 0
    for (;;) {
      const byte = b[i++]
      value = value * 128 + (byte & 0x7f)
      if (!(byte & 0x80)) return value
    }
  }
  ue7() // width
  ue7() // height
  ue7() // picture data length
  const extStart = i
  const extLength = ue7()
  const extEnd = i + extLength
  const out = Buffer.concat([b.subarray(0, extStart), b.subarray(extEnd)])
  out[5] = out[5] & ~0x08
  return out
}
