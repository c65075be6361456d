import { createRequire } from 'node:module'
import type { TFunction } from 'i18next'
import { formatDate, formatMoney } from '~/lib/format'
import type { Invoice } from '#server/modules/payments/invoices-contract.ts'

// An invoice as a PDF (decision 191): pdfkit (pure JavaScript) with the DejaVu Sans fonts of the
// dejavu-fonts-ttf package, which cover Latin and Cyrillic, so every one of the five languages
// prints; pdfkit embeds only the glyphs used. Labels in the reader's language, the amount and the
// date in its format (Intl). The number is also the document's title, so a viewer's window and
// a search show it.
const resolveFrom = createRequire(import.meta.url)
const fonts = {
  regular: resolveFrom.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: resolveFrom.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
}

export async function invoicePdf(v: Invoice, t: TFunction, locale: string): Promise<Buffer> {
  // pdfkit and its font engine (about 8 MB of heap) load at the first invoice, not with every server.
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: v.number,
      Author: 'Workneer',
      Subject: t('invoices:pdf.title'),
      CreationDate: new Date(v.issuedAt),
    },
  })
  doc.registerFont('regular', fonts.regular)
  doc.registerFont('bold', fonts.bold)
  const chunks: Buffer[] = []
  doc.on('data', (c: Buffer) => chunks.push(c))
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const amount = formatMoney(v.amountMinor, v.currency, locale)
  const width = doc.page.width - 112

  doc.font('bold').fontSize(22).fillColor('#0f4c81').text(t('invoices:pdf.title'))
  doc.moveDown(0.3).font('regular').fontSize(11).fillColor('#1b2430')
  doc.text(`${t('invoices:pdf.number')}: ${v.number}`)
  doc.text(`${t('invoices:pdf.date')}: ${formatDate(v.issuedAt, locale, { dateStyle: 'long' })}`)
  doc.moveDown(1.2)

  const top = doc.y
  const party = (x: number, label: string, name: string) => {
    doc
      .font('bold')
      .fontSize(9)
      .fillColor('#4f5b69')
      .text(label.toUpperCase(), x, top, { width: width / 2 - 12 })
    doc
      .font('regular')
      .fontSize(12)
      .fillColor('#1b2430')
      .text(name, x, doc.y + 2, { width: width / 2 - 12 })
  }
  party(56, t('invoices:pdf.from'), v.issuerName)
  party(56 + width / 2, t('invoices:pdf.to'), v.recipientName)
  doc.x = 56
  doc.moveDown(2)

  const row = (label: string, value: string, bold = false) => {
    const y = doc.y
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(11)
      .text(label, 56, y, { width: width - 140 })
    const after = doc.y
    doc.text(value, 56 + width - 130, y, { width: 130, align: 'right' })
    doc.y = Math.max(after, doc.y) + 6
  }
  doc.font('bold').fontSize(9).fillColor('#4f5b69')
  const head = doc.y
  doc.text(t('invoices:pdf.description').toUpperCase(), 56, head)
  doc.text(t('invoices:pdf.amount').toUpperCase(), 56 + width - 130, head, { width: 130, align: 'right' })
  doc
    .moveTo(56, doc.y + 4)
    .lineTo(56 + width, doc.y + 4)
    .strokeColor('#d6dde5')
    .stroke()
  doc.y += 10
  doc.fillColor('#1b2430')
  row(t(`invoices:pdf.line.${v.kind}`, { project: v.projectTitle, installment: v.installmentTitle }), amount)
  doc
    .moveTo(56, doc.y)
    .lineTo(56 + width, doc.y)
    .strokeColor('#d6dde5')
    .stroke()
  doc.y += 8
  row(t('invoices:pdf.total'), amount, true)
  doc.moveDown(2)
  doc.font('regular').fontSize(9).fillColor('#4f5b69')
  doc.text(t('invoices:pdf.paid'), 56, doc.y, { width })
  if (!v.issuerIsPlatform) doc.text(t('invoices:pdf.selfBilled', { issuer: v.issuerName }), { width })
  doc.end()
  return done
}
