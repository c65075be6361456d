import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createT } from './translator'
import { transmittalPdf } from './transmittal-pdf.server'
import { pdfText } from '../../tests/support/pdf-text.ts'

// The transmittal PDF (decision 318): in Russian, whose letters a PDF's standard fonts lack, it is
// a PDF titled with its number that says what was sent (each deliverable at its revision and
// status, with its files), when, from whom and to whom, in the reader's words.
const person = (id: number, name: string) => ({ id, name, imageUrl: null })
const transmittal = {
  id: 7,
  number: 'TR-0002',
  contractId: 1,
  projectId: 3,
  projectTitle: 'Проверка стальной рамы',
  createdAt: '2026-03-05T10:00:00.000Z',
  sender: person(1, 'Фёдор Инженеров'),
  recipient: person(2, 'Clara Client'),
  items: [
    {
      deliverableId: 4,
      number: 'S-101',
      title: 'Общий вид',
      discipline: 'Конструкции',
      revision: 'P02',
      status: 'for_approval' as const,
      note: 'Добавлены связи в торцевых пролётах.',
      files: [
        { id: 9, name: 'S-101-P02.pdf', url: 'files/9/download', size: 20480, mime: 'application/pdf' },
      ],
    },
  ],
}

async function translator(lng: string) {
  const file = path.resolve(import.meta.dirname, `../../locales/${lng}/deliverables.json`)
  const deliverables = JSON.parse(fs.readFileSync(file, 'utf8'))
  return createT({ catalogs: { [lng]: { deliverables } }, lng, ns: 'translation' })
}

describe('transmittal PDF', () => {
  it('names what was sent, when, from whom and to whom, in an embedded font that covers Cyrillic', async () => {
    const pdf = await transmittalPdf(transmittal, await translator('ru'), 'ru')
    const raw = pdf.toString('latin1')
    expect(raw.startsWith('%PDF-')).toBe(true)
    expect(raw).toContain('(TR-0002)')
    expect(raw).not.toContain('/BaseFont /Helvetica')
    const text = pdfText(pdf).replace(/\s*\n/g, ' ')
    for (const part of [
      'Сопроводительное письмо TR-0002',
      'Проект: Проверка стальной рамы',
      'От: Фёдор Инженеров',
      'Кому: Clara Client',
      'S-101 Общий вид',
      'Ревизия P02 · На утверждение',
      'Добавлены связи в торцевых пролётах.',
      'S-101-P02.pdf (20 KB)',
    ])
      expect(text).toContain(part)
  })
})
