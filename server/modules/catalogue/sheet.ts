// The spreadsheet libraries are loaded when a sheet is read or written, not at start: only an
// admin's import or export needs them, and a server should not carry them in memory until then
// (the start footprint, issue 15 item 6b).
import { locales, type Locale } from '#server/db/schema.ts'
import { sheetColumns, sheetLimits } from './admin-contract.ts'

// Reading and writing the skills sheet (decision 246); its columns and limits are in the contract.
export type SheetFormat = 'xlsx' | 'csv'

export interface SheetRow {
  /** The line in the sheet, the header being line 1. */
  line: number
  category: string
  subcategory: string
  names: Record<Locale, string>
}

export class SheetError extends Error {
  code: 'unreadable' | 'columns' | 'tooManyRows' | 'empty'
  constructor(code: SheetError['code'], message: string) {
    super(message)
    this.code = code
  }
}

// Headers are matched loosely ("skill (en)", "Skill_EN", "skill"), as people retype them.
const key = (header: unknown) =>
  String(header ?? '')
    .toLowerCase()
    .replace(/[^a-z]/g, '')
const wanted: Record<string, string> = {
  category: 'category',
  subcategory: 'subcategory',
  skill: 'en',
  ...Object.fromEntries(locales.map((l) => [`skill${l}`, l])),
}

export async function readSkillSheet(bytes: Buffer, format: SheetFormat): Promise<SheetRow[]> {
  const cells = format === 'csv' ? await readCsv(bytes) : await readXlsx(bytes)
  if (!cells.length) throw new SheetError('empty', 'The sheet is empty')
  const header = cells[0].map((h) => wanted[key(h)])
  const at = (name: string) => header.indexOf(name)
  const missing = ['category', 'subcategory', 'en'].filter((n) => at(n) < 0)
  if (missing.length)
    throw new SheetError('columns', `The first row must name the columns ${sheetColumns.join(', ')}`)
  if (cells.length - 1 > sheetLimits.rows)
    throw new SheetError('tooManyRows', `A sheet may hold at most ${sheetLimits.rows} rows`)
  const text = (row: unknown[], name: string) => (at(name) < 0 ? '' : String(row[at(name)] ?? '').trim())
  const rows: SheetRow[] = []
  for (const [index, row] of cells.entries()) {
    if (index === 0 || row.every((c) => String(c ?? '').trim() === '')) continue
    rows.push({
      line: index + 1,
      category: text(row, 'category'),
      subcategory: text(row, 'subcategory'),
      names: Object.fromEntries(locales.map((l) => [l, text(row, l)])) as Record<Locale, string>,
    })
  }
  return rows
}

async function readCsv(bytes: Buffer): Promise<unknown[][]> {
  const { parse } = await import('csv-parse/sync')
  try {
    return parse(bytes, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
      to_line: sheetLimits.rows + 2,
    })
  } catch (error) {
    throw new SheetError('unreadable', `The CSV cannot be read: ${(error as Error).message}`)
  }
}

async function readXlsx(bytes: Buffer): Promise<unknown[][]> {
  const [{ unzipSync }, { readSheet }] = await Promise.all([import('fflate'), import('read-excel-file/node')])
  let unpacked = 0
  try {
    // Only sizes are read here (the filter answers false, so nothing is inflated).
    unzipSync(bytes, {
      filter: (file) => {
        unpacked += file.originalSize
        return false
      },
    })
  } catch {
    throw new SheetError('unreadable', 'The workbook cannot be read')
  }
  if (unpacked > sheetLimits.unpackedBytes)
    throw new SheetError(
      'tooManyRows',
      `The workbook unpacks to more than ${sheetLimits.unpackedBytes / 1024 / 1024} MB`,
    )
  try {
    return await readSheet(bytes)
  } catch {
    throw new SheetError('unreadable', 'The workbook cannot be read')
  }
}

/** A spreadsheet runs a text cell that starts with one of these as a formula. */
export const formulaStart = /^[=+\-@\t\r]/

export async function writeSkillSheet(
  rows: Array<Omit<SheetRow, 'line'>>,
  format: SheetFormat,
): Promise<Buffer> {
  const data = rows.map((r) => [r.category, r.subcategory, ...locales.map((l) => r.names[l])])
  if (format === 'csv') {
    const { stringify } = await import('csv-stringify/sync')
    // A byte order mark, so spreadsheets read the file as UTF-8; no cell starts a formula (names are checked on the way in).
    return Buffer.from(`\uFEFF${stringify([[...sheetColumns], ...data], { record_delimiter: '\r\n' })}`)
  }
  const { default: writeXlsxFile } = await import('write-excel-file/node')
  return writeXlsxFile([[...sheetColumns], ...data], { sheet: 'Skills' }).toBuffer()
}

/** The sheet as a download (the API's export and the admin page's link answer the same). */
export function sheetResponse(bytes: Buffer, format: SheetFormat) {
  const type =
    format === 'csv'
      ? 'text/csv; charset=utf-8'
      : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': type,
      'content-disposition': `attachment; filename="workneer-skills.${format}"`,
      'cache-control': 'private, no-store',
    },
  })
}
