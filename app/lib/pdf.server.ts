import { createRequire } from 'node:module'

// The documents the app prints (invoices, decision 191; transmittals, decision 318): pdfkit (pure
// JavaScript) with the DejaVu Sans fonts of the dejavu-fonts-ttf package, which cover Latin and
// Cyrillic, so every one of the five languages prints; pdfkit embeds only the glyphs used.
const resolveFrom = createRequire(import.meta.url)
const fonts = {
  regular: resolveFrom.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: resolveFrom.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
}
export const LEFT = 56

/** An A4 document with the fonts `regular` and `bold`, and the promise of its bytes once it ends. */
export async function pdfDocument(info: PDFKit.DocumentInfo) {
  // pdfkit and its font engine (about 8 MB of heap) load at the first document, not with every server.
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({ size: 'A4', margin: LEFT, info })
  doc.registerFont('regular', fonts.regular)
  doc.registerFont('bold', fonts.bold)
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  return { doc, done, width: doc.page.width - 2 * LEFT }
}
