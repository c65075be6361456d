import { inflateSync } from 'node:zlib'

// The text of a PDF that pdfkit wrote, for tests (decision 311): its fonts are embedded subsets, so
// a page draws glyph numbers, not letters; each font's ToUnicode map turns them back into text.
// Reads only what pdfkit writes (indirect objects, Flate streams, hex TJ strings), one line per
// text block, so a test can check what a reader of the invoice sees.

type Objects = Map<number, { dict: string; stream: Buffer | null }>

function objects(pdf: Buffer): Objects {
  const raw = pdf.toString('latin1')
  const found: Objects = new Map()
  for (const m of raw.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2]
    const at = body.indexOf('stream')
    if (at < 0) {
      found.set(Number(m[1]), { dict: body, stream: null })
      continue
    }
    const start = body.indexOf('\n', at) + 1
    const end = body.lastIndexOf('endstream')
    let bytes = Buffer.from(body.slice(start, end).replace(/\r?\n$/, ''), 'latin1')
    if (body.slice(0, at).includes('/FlateDecode')) bytes = inflateSync(bytes)
    found.set(Number(m[1]), { dict: body.slice(0, at), stream: bytes })
  }
  return found
}

/** A ToUnicode CMap as glyph code → text (bfchar, and bfrange with a start or an array). */
function cmap(source: string) {
  const map = new Map<number, string>()
  const hex = (h: string) => Buffer.from(h, 'hex').swap16().toString('utf16le')
  for (const block of source.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, from, to] of block[1].matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>/gi))
      map.set(parseInt(from, 16), hex(to))
  for (const block of source.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, lo, hi, to] of block[1].matchAll(
      /<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f]+>)/gi,
    )) {
      const first = parseInt(lo, 16)
      if (to.startsWith('[')) {
        ;[...to.matchAll(/<([0-9a-f]+)>/gi)].forEach((t, n) => map.set(first + n, hex(t[1])))
      } else {
        const base = parseInt(to.slice(1, -1), 16)
        for (let c = first; c <= parseInt(hi, 16); c++) map.set(c, String.fromCodePoint(base + c - first))
      }
    }
  return map
}

/** The PDF's text, page by page, one line per text block (BT … ET). */
export function pdfText(pdf: Buffer): string {
  const all = objects(pdf)
  const maps = new Map<number, Map<number, string>>()
  const mapOf = (fontRef: number) => {
    if (!maps.has(fontRef)) {
      const uni = /\/ToUnicode (\d+) 0 R/.exec(all.get(fontRef)?.dict ?? '')
      maps.set(fontRef, cmap(uni ? (all.get(Number(uni[1]))?.stream?.toString('latin1') ?? '') : ''))
    }
    return maps.get(fontRef)!
  }
  const lines: string[] = []
  for (const page of [...all.values()].filter((o) => /\/Type \/Page\b/.test(o.dict))) {
    const resources = /\/Resources (\d+) 0 R/.exec(page.dict)
    const fontsDict = resources ? all.get(Number(resources[1]))!.dict : page.dict
    const fonts = new Map([...fontsDict.matchAll(/\/(F\d+) (\d+) 0 R/g)].map((m) => [m[1], Number(m[2])]))
    for (const ref of page.dict.match(/\/Contents (\d+) 0 R/)?.slice(1) ?? []) {
      const content = all.get(Number(ref))!.stream!.toString('latin1')
      for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
        let map = new Map<number, string>()
        let line = ''
        for (const op of block[1].matchAll(/\/(F\d+) [\d.]+ Tf|\[([^\]]*)\] TJ|<([0-9a-f]*)> Tj/gi)) {
          if (op[1]) map = mapOf(fonts.get(op[1])!)
          const hexes = op[2] ? [...op[2].matchAll(/<([0-9a-f]*)>/gi)].map((h) => h[1]) : op[3] ? [op[3]] : []
          for (const h of hexes)
            for (let i = 0; i < h.length; i += 4) line += map.get(parseInt(h.slice(i, i + 4), 16)) ?? '?'
        }
        lines.push(line)
      }
    }
  }
  return lines.join('\n')
}
