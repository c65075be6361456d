import type { TFunction } from '~/lib/translator'
import { LEFT, pdfDocument } from '~/lib/pdf.server'
import { formatDate, formatMoney, formatNumber } from '~/lib/format'
import type { Invoice } from '#server/modules/payments/invoices-contract.ts'

// An invoice as a PDF (decisions 191, 311), printed as every document is (pdf.server.ts). Labels
// in the reader's language, amounts and the date in its format (Intl). The number is also the document's title, so a viewer's window and a
// search show it. The parties, the platform's legal details and the tax line are the copies the
// invoice was issued with; an invoice issued before they were kept prints the names alone.
type Doc = PDFKit.PDFDocument
type Party = NonNullable<Invoice['issuer']>
const INK = '#1b2430'
const MUTED = '#4f5b69'
const RULE = '#d6dde5'

export async function invoicePdf(v: Invoice, t: TFunction, locale: string): Promise<Buffer> {
  const { doc, done, width } = await pdfDocument({
    Title: v.number,
    Author: v.platform?.name ?? 'Workneer',
    Subject: t('invoices:pdf.title'),
    CreationDate: new Date(v.issuedAt),
  })

  doc.font('bold').fontSize(22).fillColor('#0f4c81').text(t('invoices:pdf.title'))
  doc.moveDown(0.3).font('regular').fontSize(11).fillColor(INK)
  doc.text(`${t('invoices:pdf.number')}: ${v.number}`)
  doc.text(`${t('invoices:pdf.date')}: ${formatDate(v.issuedAt, locale, { dateStyle: 'long' })}`)
  doc.moveDown(1.2)
  parties(doc, v, t, width)
  items(doc, v, t, locale, width)
  notes(doc, v, t, width)
  doc.end()
  return done
}

/** Seller and buyer side by side: name, address lines, VAT id and registration when given. */
function parties(doc: Doc, v: Invoice, t: TFunction, width: number) {
  const top = doc.y
  const column = width / 2 - 12
  let bottom = top
  const block = (x: number, label: string, name: string, party: Party | null) => {
    doc.font('bold').fontSize(9).fillColor(MUTED).text(label.toUpperCase(), x, top, { width: column })
    doc
      .font('regular')
      .fontSize(12)
      .fillColor(INK)
      .text(party?.name ?? name, x, doc.y + 2, { width: column })
    doc.fontSize(10)
    for (const line of party?.address ?? []) doc.text(line, x, doc.y, { width: column })
    if (party?.vatId) doc.text(`${t('invoices:pdf.vatId')}: ${party.vatId}`, x, doc.y, { width: column })
    if (party?.registration)
      doc.text(`${t('invoices:pdf.registration')}: ${party.registration}`, x, doc.y, { width: column })
    bottom = Math.max(bottom, doc.y)
  }
  block(LEFT, t('invoices:pdf.from'), v.issuerName, v.issuer)
  block(LEFT + width / 2, t('invoices:pdf.to'), v.recipientName, v.recipient)
  doc.x = LEFT
  doc.y = bottom
  doc.moveDown(2)
}

/** The invoice's one item (what was released or its fee), then the totals and the tax line. */
function items(doc: Doc, v: Invoice, t: TFunction, locale: string, width: number) {
  const money = (minor: number) => formatMoney(minor, v.currency, locale)
  const net = v.amountMinor - (v.tax?.amountMinor ?? 0)
  // Description, quantity, unit price, amount: the last three right-aligned.
  const cols = [
    { x: LEFT, w: width - 250, align: 'left' as const },
    { x: LEFT + width - 240, w: 40, align: 'right' as const },
    { x: LEFT + width - 195, w: 95, align: 'right' as const },
    { x: LEFT + width - 95, w: 95, align: 'right' as const },
  ]
  const row = (cells: string[], font = 'regular') => {
    const y = doc.y
    let after = y
    doc.font(font)
    cells.forEach((text, n) => {
      if (!text) return
      doc.text(text, cols[n].x, y, { width: cols[n].w, align: cols[n].align })
      after = Math.max(after, doc.y)
    })
    doc.y = after + 6
  }
  const rule = () => {
    doc
      .moveTo(LEFT, doc.y)
      .lineTo(LEFT + width, doc.y)
      .strokeColor(RULE)
      .stroke()
    doc.y += 8
  }
  doc.fontSize(9).fillColor(MUTED)
  row(
    ['description', 'quantity', 'unitPrice', 'amount'].map((k) => t(`invoices:pdf.${k}`).toUpperCase()),
    'bold',
  )
  rule()
  doc.fontSize(11).fillColor(INK)
  const what = t(`invoices:pdf.line.${v.kind}`, { project: v.projectTitle, installment: v.installmentTitle })
  row([what, formatNumber(1, locale), money(net), money(net)])
  rule()
  if (v.tax) {
    const rate = formatNumber(v.tax.ratePercent, locale, { maximumFractionDigits: 2 })
    row([t('invoices:pdf.subtotal'), '', '', money(net)])
    row([t('invoices:pdf.tax', { rate }), '', '', money(v.tax.amountMinor)])
  }
  row([t('invoices:pdf.total'), '', '', money(v.amountMinor)], 'bold')
}

/** How it was paid, who issued it for whom, and the platform's legal details when configured. */
function notes(doc: Doc, v: Invoice, t: TFunction, width: number) {
  doc.moveDown(2)
  doc.font('regular').fontSize(9).fillColor(MUTED)
  doc.text(t('invoices:pdf.paid'), LEFT, doc.y, { width })
  if (!v.issuerIsPlatform) doc.text(t('invoices:pdf.selfBilled', { issuer: v.issuerName }), { width })
  const p = v.platform
  const legal = p
    ? [
        p.name,
        ...p.address,
        p.registration && `${t('invoices:pdf.registration')}: ${p.registration}`,
        p.vatId && `${t('invoices:pdf.vatId')}: ${p.vatId}`,
      ].filter(Boolean)
    : []
  // The platform's name alone says nothing the invoice does not; its legal details are printed when set.
  if (legal.length > 1) doc.moveDown(1).text(legal.join(' · '), { width })
}
