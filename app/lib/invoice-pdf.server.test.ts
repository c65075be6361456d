import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createT } from './translator'
import { invoicePdf } from './invoice-pdf.server'
import type { Invoice } from '#server/modules/payments/invoices-contract.ts'
import { pdfText } from '../../tests/support/pdf-text.ts'

// The invoice PDF: in Russian, the language whose letters a PDF's standard fonts lack, it is a PDF
// titled with its number, set in the embedded DejaVu Sans (not Helvetica). Its text, read back
// through the fonts' ToUnicode maps, carries both parties' names, addresses and VAT ids, the
// platform's legal details, one line per item and the tax line when there is one (decision 311);
// an invoice issued before details were kept prints its names alone, as it did.
const invoice: Invoice = {
  id: 1,
  number: 'WN-2026-000042',
  kind: 'service',
  role: 'recipient',
  issuerName: 'Фёдор Инженеров',
  issuerIsPlatform: false,
  recipientName: 'Clara Client',
  projectId: 3,
  projectTitle: 'Проверка стальной рамы',
  installmentTitle: 'Этап 1',
  amountMinor: 123456,
  currency: 'EUR',
  issuedAt: '2026-03-05T10:00:00.000Z',
  issuer: null,
  recipient: null,
  platform: null,
  tax: null,
}
const platform = {
  name: 'Workneer S.L.',
  address: ['Calle Mayor 1', '28013 Madrid', 'Spain'],
  vatId: 'ESB12345678',
  registration: 'Registro Mercantil de Madrid, hoja M-123456',
}
const clara = {
  name: 'Clara Client GmbH',
  address: ['Hauptstraße 5', '10115 Berlin', 'Germany'],
  vatId: 'DE123456789',
  registration: '',
}

async function translator(lng: string) {
  const file = path.resolve(import.meta.dirname, `../../locales/${lng}/invoices.json`)
  const invoices = JSON.parse(fs.readFileSync(file, 'utf8'))
  return createT({ catalogs: { [lng]: { invoices } }, lng, ns: 'translation' })
}
/** The PDF's text with its lines joined, as a reader scans it (a long line wraps anywhere). */
const textOf = async (v: Invoice, lng = 'en') =>
  pdfText(await invoicePdf(v, await translator(lng), lng)).replace(/\s*\n/g, ' ')

describe('invoice PDF', () => {
  it('is a PDF titled with its number, set in an embedded font that covers Cyrillic', async () => {
    const pdf = await invoicePdf(invoice, await translator('ru'), 'ru')
    const raw = pdf.toString('latin1')
    expect(raw.startsWith('%PDF-')).toBe(true)
    expect(raw).toMatch(/\/Title \d+ 0 R/)
    expect(raw).toContain('(WN-2026-000042)')
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\n/)
    expect(raw).not.toContain('/BaseFont /Helvetica')
    expect(pdfText(pdf)).toContain('Фёдор Инженеров')
  })

  it("a fee invoice carries both parties' details, the platform's legal details, its item and the VAT included", async () => {
    const text = await textOf({
      ...invoice,
      kind: 'client_fee',
      issuerName: 'Workneer',
      issuerIsPlatform: true,
      amountMinor: 3630,
      issuer: platform,
      recipient: clara,
      platform,
      tax: { ratePercent: 21, amountMinor: 630 },
    })
    // The seller, then the buyer, each with name, address and VAT id.
    expect(text).toContain(
      'FROM Workneer S.L. Calle Mayor 1 28013 Madrid Spain VAT / tax ID: ESB12345678 Company registration: Registro Mercantil de Madrid, hoja M-123456',
    )
    expect(text).toContain(
      'BILLED TO Clara Client GmbH Hauptstraße 5 10115 Berlin Germany VAT / tax ID: DE123456789',
    )
    // One line: description, quantity, unit price and amount before VAT; then the totals.
    expect(text).toContain('DESCRIPTION QTY UNIT PRICE AMOUNT')
    expect(text).toContain(
      'Workneer service fee: “Проверка стальной рамы”, installment “Этап 1” 1 €30.00 €30.00',
    )
    expect(text).toContain('Subtotal before VAT €30.00 VAT 21% (included in the total) €6.30 Total €36.30')
    expect(text).toContain(
      'Workneer S.L. · Calle Mayor 1 · 28013 Madrid · Spain · Company registration: Registro Mercantil de Madrid, hoja M-123456 · VAT / tax ID: ESB12345678',
    )
  })

  it('a freelancer without a VAT rate bills the price with no tax line; an address-less party prints its name alone', async () => {
    const text = await textOf({
      ...invoice,
      issuerName: 'Fran Engineer',
      amountMinor: 120000,
      issuer: { name: 'Fran Engineer', address: [], vatId: '', registration: '' },
      recipient: clara,
      platform: { name: 'Workneer', address: [], vatId: '', registration: '' },
    })
    expect(text).toContain('FROM Fran Engineer BILLED TO Clara Client GmbH')
    expect(text).toContain('installment “Этап 1” 1 €1,200.00 €1,200.00 Total €1,200.00')
    expect(text).not.toContain('Subtotal')
    expect(text).not.toMatch(/VAT \d/)
    // No legal details configured: no footer line of them.
    expect(text).not.toContain('·')
  })

  it('an invoice issued before details were kept prints its names and total as before', async () => {
    const text = await textOf({ ...invoice, issuerName: 'Fran Engineer' })
    expect(text).toContain('FROM Fran Engineer BILLED TO Clara Client DESCRIPTION')
    expect(text).toContain('Total €1,234.56')
    expect(text).not.toContain('VAT')
  })
})
