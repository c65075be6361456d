import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import { notDisplayable } from '../files/rules.ts'
import { personName } from '../identity/display-name.ts'

// How profiles show what they store: country and language names in the reader's language, a
// person's card (name, picture, member since) and the files their pages link to.

const regionNames = new Map<Locale, Intl.DisplayNames>()
const languageNames = new Map<Locale, Intl.DisplayNames>()
// Intl.DisplayNames.of is slow next to a query's rows, and a search page names a country per hit,
// so names are remembered per language (a bounded map: the codes come from the catalogue).
const countryNames = new Map<string, string>()

export function countryName(locale: Locale, code: string | null) {
  if (!code) return null
  const key = `${locale}:${code}`
  let name = countryNames.get(key)
  if (name === undefined) {
    let names = regionNames.get(locale)
    if (!names) regionNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'region' })))
    name = names.of(code) ?? code
    if (countryNames.size < 5000) countryNames.set(key, name)
  }
  return name
}

export function languageName(locale: Locale, code: string) {
  let names = languageNames.get(locale)
  if (!names) languageNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'language' })))
  return names.of(code) ?? code
}

/** Whether a browser can show the file inline (a TIFF, for one, is offered as a download). */
export const displayableType = (type: string | null | undefined) =>
  !!type && !(notDisplayable as readonly string[]).includes(type === 'tif' ? 'tiff' : type)

export const fileUrl = (id: number) => `files/${id}/download`

/** The account row a profile page shows beside the profile, with its picture's type. */
export async function userCard(db: DB, userId: number) {
  return db
    .selectFrom('app_user as u')
    .leftJoin('stored_file as f', 'f.id', 'u.image_file_id')
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.company_name',
      'u.status',
      'u.image_file_id',
      'u.created_at',
      'f.type as image_type',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst()
}
export type UserCard = NonNullable<Awaited<ReturnType<typeof userCard>>>

export const personOf = (u: UserCard) => ({
  userId: u.id,
  firstName: u.first_name,
  lastName: u.last_name,
  // A company's profile shows its name (companyName) beside this one, its contact's.
  name: personName(u),
  imageUrl: u.image_file_id != null ? fileUrl(u.image_file_id) : null,
  imageDisplayable: u.image_file_id != null && displayableType(u.image_type),
  memberSince: u.created_at,
})

export interface FileLink {
  id: number
  url: string
  name: string
  type: string
  size: number
  displayable: boolean
}

/** The links of these stored files, by id. */
export async function fileLinks(db: DB, ids: number[]) {
  if (!ids.length) return new Map<number, FileLink>()
  const rows = await db
    .selectFrom('stored_file')
    .select(['id', 'original_name', 'type', 'size'])
    .where('id', 'in', ids)
    .execute()
  return new Map(
    rows.map((r): [number, FileLink] => [
      r.id,
      {
        id: r.id,
        url: fileUrl(r.id),
        name: r.original_name,
        type: r.type,
        size: r.size,
        displayable: displayableType(r.type),
      },
    ]),
  )
}
