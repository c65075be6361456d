import type { TFunction } from '~/lib/translator'
import { LEFT, pdfDocument } from '~/lib/pdf.server'
import { formatDateTime } from '~/lib/format'
import type { ResultOf } from '#server/api/contract.ts'
import type { deliverablesContract } from '#server/modules/projects/deliverables/contract.ts'

// A transmittal as a PDF (decision 318), printed as invoices are (pdf.server.ts), labels in the
// reader's language. It says what was sent (each deliverable at its revision and status, with its
// files), when, by whom and to whom.
type Transmittal = ResultOf<typeof deliverablesContract.transmittal>
const INK = '#1b2430'
const MUTED = '#4f5b69'

export async function transmittalPdf(v: Transmittal, t: TFunction, locale: string): Promise<Buffer> {
  const { doc, done, width } = await pdfDocument({
    Title: v.number,
    Author: 'Workneer',
    Subject: t('deliverables:pdf.title'),
    CreationDate: new Date(v.createdAt),
  })
  doc
    .font('bold')
    .fontSize(22)
    .fillColor('#0f4c81')
    .text(`${t('deliverables:pdf.title')} ${v.number}`)
  doc.moveDown(0.5).font('regular').fontSize(11).fillColor(INK)
  doc.text(`${t('deliverables:pdf.project')}: ${v.projectTitle}`, { width })
  doc.text(`${t('deliverables:pdf.date')}: ${formatDateTime(v.createdAt, locale)}`)
  doc.text(`${t('deliverables:pdf.from')}: ${v.sender.name}`)
  doc.text(`${t('deliverables:pdf.to')}: ${v.recipient.name}`)
  doc.moveDown(1.2)
  for (const item of v.items) {
    doc.font('bold').fontSize(12).fillColor(INK).text(`${item.number} ${item.title}`, LEFT, doc.y, { width })
    doc.font('regular').fontSize(10).fillColor(MUTED)
    doc.text(
      `${item.discipline} · ${t('deliverables:page.revision')} ${item.revision} · ${t(`deliverables:status.${item.status}`)}`,
      { width },
    )
    doc.fillColor(INK).text(item.note, { width })
    for (const f of item.files)
      doc.text(`• ${f.name} (${Math.max(1, Math.round(f.size / 1024))} KB)`, { width })
    doc.moveDown(0.8)
  }
  doc.end()
  return done
}
