import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import { invoicePdf } from './invoice-pdf.server'
import type { Invoice } from '#server/modules/payments/invoices-contract.ts'

// The invoice PDF in Russian, the language whose letters a PDF's standard fonts lack: it is a PDF,
// its title is the invoice number, and the text is set in the embedded DejaVu Sans (not Helvetica).
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
}

describe('invoice PDF', () => {
  it('is a PDF titled with its number, set in an embedded font that covers Cyrillic', async () => {
    const i18n = i18next.createInstance()
    await i18n.init({
      lng: 'ru',
      resources: {
        ru: {
          invoices: JSON.parse(
            fs.readFileSync(path.resolve(import.meta.dirname, '../../locales/ru/invoices.json'), 'utf8'),
          ),
        },
      },
      interpolation: { escapeValue: false },
    })
    const pdf = await invoicePdf(invoice, i18n.t, 'ru')
    const raw = pdf.toString('latin1')
    expect(raw.startsWith('%PDF-')).toBe(true)
    expect(raw).toMatch(/\/Title \d+ 0 R/)
    expect(raw).toContain('(WN-2026-000042)')
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\n/)
    expect(raw).not.toContain('/BaseFont /Helvetica')
  })
})
