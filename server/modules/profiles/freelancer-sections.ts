import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { limits } from './rules.ts'
import { checkCountry } from './catalogue-checks.ts'
import { changeFreelancer } from './freelancer-editing.ts'
import { fieldError, nowIso, type Body, type ProfilesDeps, type Trx } from './shared.ts'

// The list sections of a freelancer's profile: languages, education, employment and
// certifications. Every change names the caller's own row, so another user's id answers 404.

type SectionTable =
  | 'freelancer_education'
  | 'freelancer_employment'
  | 'freelancer_certification'
  | 'freelancer_portfolio'
  | 'freelancer_language'

/** Refuses a new item when the section already lists `max`. */
export async function assertRoom(
  trx: Trx,
  table: SectionTable,
  userId: number,
  field: string,
  max: number = limits.listItems,
) {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  if (Number(row.n) >= max) throw fieldError(field, `may list at most ${max}`)
}

/** A change that found none of the caller's rows answers 404. */
export function assertOne(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }, what: string) {
  if (Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0) !== 1) throw notFound(what)
}

/** Deletes one of the caller's items of a section; another user's item, or none, answers 404. */
export async function deleteOwnItem(trx: Trx, table: SectionTable, userId: number, id: number, what: string) {
  assertOne(
    await trx.deleteFrom(table).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst(),
    what,
  )
}

export function languageEditors(deps: ProfilesDeps) {
  return {
    languageAdd: (c: Caller, l: Locale, b: Body<'language'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        const known = await trx
          .selectFrom('language')
          .select('code')
          .where('code', '=', b.code)
          .executeTakeFirst()
        if (!known) throw fieldError('code', 'is not a known language')
        const exists = await trx
          .selectFrom('freelancer_language')
          .select('level')
          .where('user_id', '=', c.userId)
          .where('language_code', '=', b.code)
          .executeTakeFirst()
        if (exists) throw fieldError('code', 'is already listed')
        await assertRoom(trx, 'freelancer_language', c.userId, 'code', limits.languages)
        await trx
          .insertInto('freelancer_language')
          .values({ user_id: c.userId, language_code: b.code, level: b.level })
          .execute()
      }),
    languageUpdate: (c: Caller, l: Locale, code: string, b: Body<'languageLevel'>) =>
      changeFreelancer(deps, c, l, async (trx) =>
        assertOne(
          await trx
            .updateTable('freelancer_language')
            .set({ level: b.level })
            .where('user_id', '=', c.userId)
            .where('language_code', '=', code)
            .executeTakeFirst(),
          'Language',
        ),
      ),
    languageDelete: (c: Caller, l: Locale, code: string) =>
      changeFreelancer(deps, c, l, async (trx) =>
        assertOne(
          await trx
            .deleteFrom('freelancer_language')
            .where('user_id', '=', c.userId)
            .where('language_code', '=', code)
            .executeTakeFirst(),
          'Language',
        ),
      ),
  }
}

const educationValues = (b: Body<'education'>) => ({
  school: b.school,
  degree: b.degree,
  field_of_study: b.fieldOfStudy,
  start_year: b.startYear ?? null,
  end_year: b.endYear ?? null,
  description: b.description,
})

export function educationEditors(deps: ProfilesDeps) {
  return {
    educationAdd: (c: Caller, l: Locale, b: Body<'education'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_education', c.userId, 'school')
        await trx
          .insertInto('freelancer_education')
          .values({ user_id: c.userId, ...educationValues(b), created_at: nowIso() })
          .execute()
      }),
    educationUpdate: (c: Caller, l: Locale, id: number, b: Body<'education'>) =>
      changeFreelancer(deps, c, l, async (trx) =>
        assertOne(
          await trx
            .updateTable('freelancer_education')
            .set(educationValues(b))
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Education',
        ),
      ),
    educationDelete: (c: Caller, l: Locale, id: number) =>
      changeFreelancer(deps, c, l, (trx) =>
        deleteOwnItem(trx, 'freelancer_education', c.userId, id, 'Education'),
      ),
  }
}

const employmentValues = (b: Body<'employment'>) => ({
  company: b.company,
  role: b.role,
  country: b.country ?? null,
  start_month: b.startMonth,
  end_month: b.endMonth ?? null,
  description: b.description,
})

export function employmentEditors(deps: ProfilesDeps) {
  return {
    employmentAdd: (c: Caller, l: Locale, b: Body<'employment'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await assertRoom(trx, 'freelancer_employment', c.userId, 'company')
        await trx
          .insertInto('freelancer_employment')
          .values({ user_id: c.userId, ...employmentValues(b), created_at: nowIso() })
          .execute()
      }),
    employmentUpdate: (c: Caller, l: Locale, id: number, b: Body<'employment'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        assertOne(
          await trx
            .updateTable('freelancer_employment')
            .set(employmentValues(b))
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Position',
        )
      }),
    employmentDelete: (c: Caller, l: Locale, id: number) =>
      changeFreelancer(deps, c, l, (trx) =>
        deleteOwnItem(trx, 'freelancer_employment', c.userId, id, 'Position'),
      ),
  }
}

const certificationValues = (b: Body<'certification'>) => ({
  name: b.name,
  issuer: b.issuer,
  issued_month: b.issuedMonth ?? null,
  credential_url: b.credentialUrl ?? null,
})

export function certificationEditors(deps: ProfilesDeps) {
  return {
    certificationAdd: (c: Caller, l: Locale, b: Body<'certification'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_certification', c.userId, 'name')
        await trx
          .insertInto('freelancer_certification')
          .values({ user_id: c.userId, ...certificationValues(b), created_at: nowIso() })
          .execute()
      }),
    certificationUpdate: (c: Caller, l: Locale, id: number, b: Body<'certification'>) =>
      changeFreelancer(deps, c, l, async (trx) =>
        assertOne(
          await trx
            .updateTable('freelancer_certification')
            .set(certificationValues(b))
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Certification',
        ),
      ),
    certificationDelete: (c: Caller, l: Locale, id: number) =>
      changeFreelancer(deps, c, l, (trx) =>
        deleteOwnItem(trx, 'freelancer_certification', c.userId, id, 'Certification'),
      ),
  }
}
