import { sql, type CompiledQuery, type Kysely, type Transaction, type Updateable } from 'kysely'
import type { Database, Locale } from '../../db/schema.ts'
import type { DB } from '../../db/database.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, forbidden, notFound } from '../../api/errors.ts'
import { Role } from '../identity/permissions.ts'
import type { FileService, StoredFile } from '../files/service.ts'
import { notDisplayable } from '../files/rules.ts'
import type { z } from 'zod'
import {
  searchQuery,
  type bodies,
  type OwnClient,
  type OwnFreelancer,
  type PaymentMethod,
  type paymentBodies,
  type PublicClient,
  type PublicFreelancer,
  type SearchHit,
  type SearchQuery,
} from './contract.ts'
import {
  companySections,
  completenessOf,
  freelancerSections,
  individualSections,
  limits,
  normalizeIban,
  paymentDestination,
  searchCap,
  type SectionKey,
} from './rules.ts'
import { createSearchIndex, type FullTextMatch, type ProfilesQuery } from './search-index.ts'
import { bucketColumnOf, countBuckets, probesFor } from './sort-buckets.ts'
import { createShortCache } from '../../lib/short-cache.ts'
import { localBus, type CacheBus } from '../../lib/cache-bus.ts'
import { indexFreelancer, relistFreelancer } from './listing.ts'
import { displayName, personName } from '../identity/display-name.ts'

type Trx = Kysely<Database> | Transaction<Database>
type Body<K extends keyof typeof bodies> = z.output<(typeof bodies)[K]>
type ClientKind = 'individual' | 'company'

const nowIso = () => new Date().toISOString()

/** Each sort of Find Freelancers as ORDER BY terms, column for column the indexes of migration 0008. */
const sortOrders: Record<SearchQuery['sort'], Array<[string, 'asc' | 'desc']>> = {
  relevance: [
    ['fp.rating_x100', 'desc'],
    ['fp.updated_at', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  rating: [
    ['fp.rating_x100', 'desc'],
    ['fp.rating_count', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  'rate-asc': [
    ['coalesce(fp.hourly_rate_minor, 2147483647)', 'asc'],
    ['fp.user_id', 'asc'],
  ],
  'rate-desc': [
    ['coalesce(fp.hourly_rate_minor, -1)', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  experience: [
    ['coalesce(fp.years_of_experience, -1)', 'desc'],
    ['fp.user_id', 'desc'],
  ],
  newest: [
    ['fp.created_at', 'desc'],
    ['fp.user_id', 'desc'],
  ],
}
/** The columns those orders read. */
const sortColumns = [
  'fp.user_id',
  'fp.rating_x100',
  'fp.rating_count',
  'fp.updated_at',
  'fp.hourly_rate_minor',
  'fp.years_of_experience',
  'fp.created_at',
] as const
const fieldError = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
const displayableType = (type: string | null | undefined) =>
  !!type && !(notDisplayable as readonly string[]).includes(type === 'tif' ? 'tiff' : type)
const fileUrl = (id: number) => `files/${id}/download`

const regionNames = new Map<Locale, Intl.DisplayNames>()
const languageNames = new Map<Locale, Intl.DisplayNames>()
// Intl.DisplayNames.of costs about half a millisecond a call; a search page names 20 countries.
const countryNames = new Map<string, string>()
function countryName(locale: Locale, code: string | null) {
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
function languageName(locale: Locale, code: string) {
  let names = languageNames.get(locale)
  if (!names) languageNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'language' })))
  return names.of(code) ?? code
}

/**
 * The profiles of freelancers, individual clients and companies, their images and files, the
 * freelancers' payment methods, and Find Freelancers. Every write is scoped to the caller's own
 * rows: another user's items answer 404, another kind of account 403.
 */
export function createProfilesService({
  db,
  dialect,
  files,
  bus = localBus(),
}: {
  db: DB
  dialect: Dialect
  files: FileService
  bus?: CacheBus
}) {
  const index = createSearchIndex(db, dialect)
  // PostgreSQL locks the row read before a file replaces another (SQLite's BEGIN IMMEDIATE already holds the write lock).
  const forUpdate = <Q extends { forUpdate(): Q }>(q: Q) => (dialect === 'postgres' ? q.forUpdate() : q)

  /**
   * Swaps a stored file on a row: `swap` points the row at `next` in one transaction and answers the
   * file it pointed at, whose row is deleted there too and whose bytes go after commit. If the swap
   * fails, the just-uploaded file is released instead, so neither is left without an owner.
   */
  async function replaceFile(next: number | null, swap: (trx: Trx) => Promise<number | null>) {
    try {
      await db.transaction().execute(async (trx) => {
        const previous = await swap(trx)
        if (previous !== next) await files.release(trx, [previous])
      })
    } catch (error) {
      if (next != null) await db.transaction().execute((trx) => files.release(trx, [next]))
      throw error
    }
  }

  // Profile images are public while their owner's account is; portfolio files follow the profile.
  const ownerActive = async (file: StoredFile) => {
    if (file.ownerId == null) return false
    const u = await db
      .selectFrom('app_user')
      .select('status')
      .where('id', '=', file.ownerId)
      .executeTakeFirst()
    return u?.status === 'Active'
  }
  files.setReadPolicy('profile-image', ownerActive)
  files.setReadPolicy('portfolio', ownerActive)
  files.setReadPolicy('rate-sheet', ownerActive)
  // The sweep may release a file of these purposes once no row here points at it (files/service.ts).
  files.setReferences('profile-image', async (executor, ids) =>
    (
      await executor
        .selectFrom('app_user')
        .select('image_file_id as id')
        .where('image_file_id', 'in', ids)
        .execute()
    ).map((r) => r.id!),
  )
  files.setReferences('rate-sheet', async (executor, ids) =>
    (
      await executor
        .selectFrom('freelancer_profile')
        .select('rate_sheet_file_id as id')
        .where('rate_sheet_file_id', 'in', ids)
        .execute()
    ).map((r) => r.id!),
  )
  files.setReferences('portfolio', async (executor, ids) =>
    (
      await executor
        .selectFrom('freelancer_portfolio')
        .select(['image_file_id', 'document_file_id'])
        .where((eb) => eb.or([eb('image_file_id', 'in', ids), eb('document_file_id', 'in', ids)]))
        .execute()
    )
      .flatMap((r) => [r.image_file_id, r.document_file_id])
      .filter((id): id is number => id != null),
  )

  // ---- who may do what ------------------------------------------------------------------------

  async function rolesOf(userId: number) {
    return (await db.selectFrom('user_role').select('role').where('user_id', '=', userId).execute()).map(
      (r) => r.role,
    )
  }
  function requireRole(caller: Caller, role: number) {
    if (!caller.roles.includes(role)) throw forbidden()
  }
  const requireFreelancer = (caller: Caller) => requireRole(caller, Role.Freelancer)
  const clientRole = (kind: ClientKind) => (kind === 'company' ? Role.Company : Role.Client)

  // ---- catalogue checks -----------------------------------------------------------------------

  async function checkCountry(trx: Trx, field: string, code: string | null | undefined) {
    if (!code) return
    const row = await trx.selectFrom('country').select('code').where('code', '=', code).executeTakeFirst()
    if (!row) throw fieldError(field, 'is not a known country')
  }
  async function checkCategorization(
    trx: Trx,
    categoryId: number,
    subcategoryIds: number[],
    skillIds: number[],
  ) {
    const category = await trx
      .selectFrom('category')
      .select('id')
      .where('id', '=', categoryId)
      .executeTakeFirst()
    if (!category) throw fieldError('categoryId', 'is not a known category')
    const subs = [...new Set(subcategoryIds)]
    if (subs.length) {
      const found = await trx
        .selectFrom('subcategory')
        .select(['id', 'category_id'])
        .where('id', 'in', subs)
        .execute()
      if (found.length !== subs.length) throw fieldError('subcategoryIds', 'lists an unknown subcategory')
      if (found.some((s) => s.category_id !== categoryId))
        throw fieldError('subcategoryIds', 'must belong to the chosen category')
    }
    const skills = [...new Set(skillIds)]
    if (skills.length) {
      const found = await trx.selectFrom('skill').select('id').where('id', 'in', skills).execute()
      if (found.length !== skills.length) throw fieldError('skillIds', 'lists an unknown skill')
    }
    return { subs, skills }
  }

  // ---- freelancer -----------------------------------------------------------------------------

  async function ensureFreelancer(trx: Trx, userId: number) {
    const now = nowIso()
    await trx
      .insertInto('freelancer_profile')
      .values({ user_id: userId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute()
  }

  /** Keeps the search document and the `listed` flag in step with the profile (listed: a title and an active account, listing.ts). */
  async function reindex(trx: Trx, userId: number) {
    await trx
      .updateTable('freelancer_profile')
      .set({ updated_at: nowIso() })
      .where('user_id', '=', userId)
      .execute()
    await relistFreelancer(trx as DB, userId)
    await indexFreelancer(trx as DB, dialect, userId)
  }

  /** Identity's hook when an account's name changes, in its transaction: the search document carries the name. */
  async function renamed(executor: Trx, userId: number) {
    await indexFreelancer(executor as DB, dialect, userId)
    void forgetSearches() // a search before the commit, or another instance's, may keep the old name for its 30 s
  }

  /** Runs a change to the caller's freelancer profile in one transaction, then answers the whole profile. */
  async function changeFreelancer(
    caller: Caller,
    locale: Locale,
    change: (trx: Trx) => Promise<void>,
    options: { reindex?: boolean } = {},
  ) {
    requireFreelancer(caller)
    await db.transaction().execute(async (trx) => {
      await ensureFreelancer(trx, caller.userId)
      await change(trx)
      if (options.reindex) await reindex(trx, caller.userId)
      else {
        await trx
          .updateTable('freelancer_profile')
          .set({ updated_at: nowIso() })
          .where('user_id', '=', caller.userId)
          .execute()
        await index.copyTerms(trx as DB, caller.userId) // the facets follow every field
      }
    })
    await forgetSearches() // after the commit, so no search in between caches the old profile
    return storeCompleteness(caller.userId, await ownFreelancer(caller, locale))
  }

  /** Keeps the stored percentage (which identity folds into wengazPercentage) in step with the profile. */
  async function storeCompleteness<V extends { completeness: { percent: number } }>(userId: number, view: V) {
    const percent = view.completeness.percent
    await db
      .updateTable('freelancer_profile')
      .set({ completeness: percent })
      .where('user_id', '=', userId)
      .where('completeness', '!=', percent)
      .execute()
    await db
      .updateTable('client_profile')
      .set({ completeness: percent })
      .where('user_id', '=', userId)
      .where('completeness', '!=', percent)
      .execute()
    return view
  }

  /** The caller's stored profile completeness, or null when they have not started a profile. */
  async function percentFor(userId: number, executor: Trx = db) {
    const f = await executor
      .selectFrom('freelancer_profile')
      .select('completeness')
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (f) return f.completeness
    const c = await executor
      .selectFrom('client_profile')
      .select('completeness')
      .where('user_id', '=', userId)
      .executeTakeFirst()
    return c ? c.completeness : null
  }

  const setFreelancer = (
    caller: Caller,
    locale: Locale,
    values: Updateable<Database['freelancer_profile']>,
    reindexAfter = false,
  ) =>
    changeFreelancer(
      caller,
      locale,
      async (trx) =>
        void (await trx
          .updateTable('freelancer_profile')
          .set(values)
          .where('user_id', '=', caller.userId)
          .execute()),
      { reindex: reindexAfter },
    )

  async function userCard(userId: number) {
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
  type Card = NonNullable<Awaited<ReturnType<typeof userCard>>>
  const personOf = (u: Card) => ({
    userId: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    // A company's profile shows its name (companyName) beside this one, its contact's.
    name: personName(u),
    imageUrl: u.image_file_id != null ? fileUrl(u.image_file_id) : null,
    imageDisplayable: u.image_file_id != null && displayableType(u.image_type),
    memberSince: u.created_at,
  })

  async function fileRefs(ids: number[]) {
    if (!ids.length)
      return new Map<
        number,
        { id: number; url: string; name: string; type: string; size: number; displayable: boolean }
      >()
    const rows = await db
      .selectFrom('stored_file')
      .select(['id', 'original_name', 'type', 'size'])
      .where('id', 'in', ids)
      .execute()
    return new Map(
      rows.map((r) => [
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

  async function loadFreelancer(
    userId: number,
    locale: Locale,
  ): Promise<{ view: PublicFreelancer; gender: string | null; card: Card } | null> {
    const card = await userCard(userId)
    if (!card) return null
    const n = `name_${locale}` as const
    const [p, subs, skills, langs, edus, jobs, certs, items] = await Promise.all([
      db
        .selectFrom('freelancer_profile as fp')
        .leftJoin('category as c', 'c.id', 'fp.category_id')
        .selectAll('fp')
        .select([`c.${n} as category_name`])
        .where('fp.user_id', '=', userId)
        .executeTakeFirst(),
      db
        .selectFrom('freelancer_subcategory as x')
        .innerJoin('subcategory as s', 's.id', 'x.subcategory_id')
        .select(['s.id', `s.${n} as name`])
        .where('x.user_id', '=', userId)
        .orderBy('s.sort_order')
        .execute(),
      db
        .selectFrom('freelancer_skill as x')
        .innerJoin('skill as s', 's.id', 'x.skill_id')
        .select(['s.id', `s.${n} as name`])
        .where('x.user_id', '=', userId)
        .orderBy(`s.${n}`)
        .execute(),
      db
        .selectFrom('freelancer_language')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('language_code')
        .execute(),
      db
        .selectFrom('freelancer_education')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('end_year', 'desc')
        .orderBy('id', 'desc')
        .execute(),
      db
        .selectFrom('freelancer_employment')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('start_month', 'desc')
        .orderBy('id', 'desc')
        .execute(),
      db
        .selectFrom('freelancer_certification')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute(),
      db
        .selectFrom('freelancer_portfolio')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute(),
    ])
    const refs = await fileRefs(
      [...items.flatMap((i) => [i.image_file_id, i.document_file_id]), p?.rate_sheet_file_id].filter(
        (x): x is number => x != null,
      ),
    )
    const view: PublicFreelancer = {
      ...personOf(card),
      title: p?.title ?? '',
      overview: p?.overview ?? '',
      description: p?.description ?? '',
      experienceLevel: p?.experience_level ?? null,
      yearsOfExperience: p?.years_of_experience ?? null,
      country: p?.country ?? null,
      countryName: countryName(locale, p?.country ?? null),
      city: p?.city ?? null,
      availability: p?.availability ?? null,
      hourlyRate:
        p?.hourly_rate_minor != null && p.currency
          ? { amountMinor: p.hourly_rate_minor, currency: p.currency }
          : null,
      category: p?.category_id != null ? { id: p.category_id, name: p.category_name ?? '' } : null,
      subcategories: subs,
      skills,
      languages: langs.map((l) => ({
        code: l.language_code,
        name: languageName(locale, l.language_code),
        level: l.level,
      })),
      educations: edus.map((e) => ({
        id: e.id,
        school: e.school,
        degree: e.degree,
        fieldOfStudy: e.field_of_study,
        startYear: e.start_year,
        endYear: e.end_year,
        description: e.description,
      })),
      employmentHistory: jobs.map((j) => ({
        id: j.id,
        company: j.company,
        role: j.role,
        country: j.country,
        countryName: countryName(locale, j.country),
        startMonth: j.start_month,
        endMonth: j.end_month,
        description: j.description,
      })),
      certifications: certs.map((c) => ({
        id: c.id,
        name: c.name,
        issuer: c.issuer,
        issuedMonth: c.issued_month,
        credentialUrl: c.credential_url,
      })),
      portfolios: items.map((i) => ({
        id: i.id,
        title: i.title,
        description: i.description,
        projectUrl: i.project_url,
        completedMonth: i.completed_month,
        image: (i.image_file_id != null && refs.get(i.image_file_id)) || null,
        document: (i.document_file_id != null && refs.get(i.document_file_id)) || null,
      })),
      rateSheet: (p?.rate_sheet_file_id != null && refs.get(p.rate_sheet_file_id)) || null,
      rating: { average: (p?.rating_x100 ?? 0) / 100, count: p?.rating_count ?? 0 },
    }
    return { view, gender: p?.gender ?? null, card }
  }

  function freelancerCompleteness(v: PublicFreelancer) {
    const done: Partial<Record<SectionKey, boolean>> = {
      image: v.imageUrl != null,
      titleOverview: !!v.title && !!v.overview,
      description: !!v.description,
      experienceLevel: !!v.experienceLevel,
      yearsOfExperience: v.yearsOfExperience != null,
      country: !!v.country,
      availability: !!v.availability,
      hourlyRate: !!v.hourlyRate,
      languages: v.languages.length > 0,
      categorization: !!v.category && v.skills.length > 0,
      educations: v.educations.length > 0,
      employmentHistory: v.employmentHistory.length > 0,
      portfolios: v.portfolios.length > 0,
    }
    return completenessOf(done, freelancerSections)
  }

  async function ownFreelancer(caller: Caller, locale: Locale): Promise<OwnFreelancer> {
    requireFreelancer(caller)
    const loaded = await loadFreelancer(caller.userId, locale)
    if (!loaded) throw notFound('Profile')
    return { ...loaded.view, gender: loaded.gender, completeness: freelancerCompleteness(loaded.view) }
  }

  async function publicFreelancer(userId: number, locale: Locale): Promise<PublicFreelancer> {
    const roles = await rolesOf(userId)
    const loaded = roles.includes(Role.Freelancer) ? await loadFreelancer(userId, locale) : null
    if (!loaded || loaded.card.status !== 'Active') throw notFound('Freelancer')
    return loaded.view
  }

  // List sections: every change names the caller's own row, so another user's id answers 404.
  async function countOf(
    trx: Trx,
    table:
      | 'freelancer_education'
      | 'freelancer_employment'
      | 'freelancer_certification'
      | 'freelancer_portfolio'
      | 'freelancer_language',
    userId: number,
  ) {
    const row = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }
  async function assertRoom(
    trx: Trx,
    table: Parameters<typeof countOf>[1],
    userId: number,
    field: string,
    max: number = limits.listItems,
  ) {
    if ((await countOf(trx, table, userId)) >= max) throw fieldError(field, `may list at most ${max}`)
  }
  function assertOne(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }, what: string) {
    if (Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0) !== 1) throw notFound(what)
  }

  const educationValues = (b: Body<'education'>) => ({
    school: b.school,
    degree: b.degree,
    field_of_study: b.fieldOfStudy,
    start_year: b.startYear ?? null,
    end_year: b.endYear ?? null,
    description: b.description,
  })
  const employmentValues = (b: Body<'employment'>) => ({
    company: b.company,
    role: b.role,
    country: b.country ?? null,
    start_month: b.startMonth,
    end_month: b.endMonth ?? null,
    description: b.description,
  })
  const certificationValues = (b: Body<'certification'>) => ({
    name: b.name,
    issuer: b.issuer,
    issued_month: b.issuedMonth ?? null,
    credential_url: b.credentialUrl ?? null,
  })
  const portfolioValues = (b: Body<'portfolio'>) => ({
    title: b.title,
    description: b.description,
    project_url: b.projectUrl ?? null,
    completed_month: b.completedMonth ?? null,
  })

  const freelancer = {
    mine: ownFreelancer,
    public: publicFreelancer,
    description: (c: Caller, l: Locale, b: Body<'description'>) =>
      setFreelancer(c, l, { description: b.description }),
    title: (c: Caller, l: Locale, b: Body<'title'>) => setFreelancer(c, l, { title: b.title }, true),
    titleOverview: (c: Caller, l: Locale, b: Body<'titleOverview'>) =>
      setFreelancer(c, l, { title: b.title, overview: b.overview }, true),
    experienceLevel: (c: Caller, l: Locale, b: Body<'experienceLevel'>) =>
      setFreelancer(c, l, { experience_level: b.experienceLevel }),
    yearsOfExperience: (c: Caller, l: Locale, b: Body<'yearsOfExperience'>) =>
      setFreelancer(c, l, { years_of_experience: b.yearsOfExperience }),
    availability: (c: Caller, l: Locale, b: Body<'availability'>) =>
      setFreelancer(c, l, { availability: b.availability }),
    gender: (c: Caller, l: Locale, b: Body<'gender'>) => setFreelancer(c, l, { gender: b.gender }),
    hourlyRate: (c: Caller, l: Locale, b: Body<'hourlyRate'>) =>
      setFreelancer(c, l, { hourly_rate_minor: b.amountMinor, currency: b.currency }),
    country: (c: Caller, l: Locale, b: Body<'country'>) =>
      changeFreelancer(c, l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await trx
          .updateTable('freelancer_profile')
          .set({ country: b.country, city: b.city || null })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    /** Several fields of one editor section in one transaction: a refused country changes none of them. */
    details: (c: Caller, l: Locale, b: Body<'details'>) =>
      changeFreelancer(c, l, async (trx) => {
        if (b.country !== undefined) await checkCountry(trx, 'country', b.country)
        const values: Updateable<Database['freelancer_profile']> = {
          ...(b.experienceLevel !== undefined && { experience_level: b.experienceLevel }),
          ...(b.yearsOfExperience !== undefined && { years_of_experience: b.yearsOfExperience }),
          ...(b.availability !== undefined && { availability: b.availability }),
          ...(b.amountMinor !== undefined && { hourly_rate_minor: b.amountMinor, currency: b.currency }),
          ...(b.country !== undefined && { country: b.country, city: b.city || null }),
          ...(b.gender !== undefined && { gender: b.gender }),
        }
        if (Object.keys(values).length)
          await trx.updateTable('freelancer_profile').set(values).where('user_id', '=', c.userId).execute()
      }),
    categorization: (c: Caller, l: Locale, b: Body<'categorization'>) =>
      changeFreelancer(
        c,
        l,
        async (trx) => {
          const { subs, skills } = await checkCategorization(trx, b.categoryId, b.subcategoryIds, b.skillIds)
          await trx
            .updateTable('freelancer_profile')
            .set({ category_id: b.categoryId })
            .where('user_id', '=', c.userId)
            .execute()
          await trx.deleteFrom('freelancer_subcategory').where('user_id', '=', c.userId).execute()
          await trx.deleteFrom('freelancer_skill').where('user_id', '=', c.userId).execute()
          if (subs.length)
            await trx
              .insertInto('freelancer_subcategory')
              .values(subs.map((s) => ({ user_id: c.userId, subcategory_id: s })))
              .execute()
          if (skills.length)
            await trx
              .insertInto('freelancer_skill')
              .values(skills.map((s) => ({ user_id: c.userId, skill_id: s })))
              .execute()
        },
        { reindex: true },
      ),
    languageAdd: (c: Caller, l: Locale, b: Body<'language'>) =>
      changeFreelancer(c, l, async (trx) => {
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
      changeFreelancer(c, l, async (trx) =>
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
      changeFreelancer(c, l, async (trx) =>
        assertOne(
          await trx
            .deleteFrom('freelancer_language')
            .where('user_id', '=', c.userId)
            .where('language_code', '=', code)
            .executeTakeFirst(),
          'Language',
        ),
      ),
    educationAdd: (c: Caller, l: Locale, b: Body<'education'>) =>
      changeFreelancer(c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_education', c.userId, 'school')
        await trx
          .insertInto('freelancer_education')
          .values({ user_id: c.userId, ...educationValues(b), created_at: nowIso() })
          .execute()
      }),
    educationUpdate: (c: Caller, l: Locale, id: number, b: Body<'education'>) =>
      changeFreelancer(c, l, async (trx) =>
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
      changeFreelancer(c, l, async (trx) =>
        assertOne(
          await trx
            .deleteFrom('freelancer_education')
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Education',
        ),
      ),
    employmentAdd: (c: Caller, l: Locale, b: Body<'employment'>) =>
      changeFreelancer(c, l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await assertRoom(trx, 'freelancer_employment', c.userId, 'company')
        await trx
          .insertInto('freelancer_employment')
          .values({ user_id: c.userId, ...employmentValues(b), created_at: nowIso() })
          .execute()
      }),
    employmentUpdate: (c: Caller, l: Locale, id: number, b: Body<'employment'>) =>
      changeFreelancer(c, l, async (trx) => {
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
      changeFreelancer(c, l, async (trx) =>
        assertOne(
          await trx
            .deleteFrom('freelancer_employment')
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Position',
        ),
      ),
    certificationAdd: (c: Caller, l: Locale, b: Body<'certification'>) =>
      changeFreelancer(c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_certification', c.userId, 'name')
        await trx
          .insertInto('freelancer_certification')
          .values({ user_id: c.userId, ...certificationValues(b), created_at: nowIso() })
          .execute()
      }),
    certificationUpdate: (c: Caller, l: Locale, id: number, b: Body<'certification'>) =>
      changeFreelancer(c, l, async (trx) =>
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
      changeFreelancer(c, l, async (trx) =>
        assertOne(
          await trx
            .deleteFrom('freelancer_certification')
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Certification',
        ),
      ),
    portfolioAdd: (c: Caller, l: Locale, b: Body<'portfolio'>) =>
      changeFreelancer(c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_portfolio', c.userId, 'title')
        await trx
          .insertInto('freelancer_portfolio')
          .values({ user_id: c.userId, ...portfolioValues(b), created_at: nowIso() })
          .execute()
      }),
    portfolioUpdate: (c: Caller, l: Locale, id: number, b: Body<'portfolio'>) =>
      changeFreelancer(c, l, async (trx) =>
        assertOne(
          await trx
            .updateTable('freelancer_portfolio')
            .set(portfolioValues(b))
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Portfolio item',
        ),
      ),
    async portfolioDelete(c: Caller, l: Locale, id: number) {
      const view = await changeFreelancer(c, l, async (trx) => {
        const item = await trx
          .selectFrom('freelancer_portfolio')
          .select(['image_file_id', 'document_file_id'])
          .where('id', '=', id)
          .where('user_id', '=', c.userId)
          .executeTakeFirst()
        assertOne(
          await trx
            .deleteFrom('freelancer_portfolio')
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Portfolio item',
        )
        await files.release(trx, [item?.image_file_id, item?.document_file_id])
      })
      return view
    },
    /** Uploads the picture or the document of one of the caller's portfolio items (checked before a byte is read). */
    async portfolioUpload(c: Caller, l: Locale, id: number, which: 'image' | 'document', request: Request) {
      requireFreelancer(c)
      const item = await db
        .selectFrom('freelancer_portfolio')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', c.userId)
        .executeTakeFirst()
      if (!item) throw notFound('Portfolio item')
      const stored = await files.receive(request, { kind: which, purpose: 'portfolio', ownerId: c.userId })
      const column = which === 'image' ? 'image_file_id' : 'document_file_id'
      await replaceFile(stored.id, async (trx) => {
        const before = await forUpdate(
          trx
            .selectFrom('freelancer_portfolio')
            .select(column)
            .where('id', '=', id)
            .where('user_id', '=', c.userId),
        ).executeTakeFirst()
        if (!before) throw notFound('Portfolio item')
        await trx
          .updateTable('freelancer_portfolio')
          .set({ [column]: stored.id })
          .where('id', '=', id)
          .execute()
        return before[column]
      })
      return storeCompleteness(c.userId, await ownFreelancer(c, l))
    },
  }

  // ---- the schedule of rates (decision 014) --------------------------------------------------------

  /** Points the profile at another rate sheet (or none), answering the one it pointed at. */
  async function setRateSheet(trx: Trx, userId: number, fileId: number | null) {
    await ensureFreelancer(trx, userId)
    const before = await forUpdate(
      trx.selectFrom('freelancer_profile').select('rate_sheet_file_id').where('user_id', '=', userId),
    ).executeTakeFirstOrThrow()
    await trx
      .updateTable('freelancer_profile')
      .set({ rate_sheet_file_id: fileId, updated_at: nowIso() })
      .where('user_id', '=', userId)
      .execute()
    return before.rate_sheet_file_id
  }
  const rateSheet = {
    /** Checked before a byte is read: the caller must be a freelancer with a profile; then SPEC §5's spreadsheet rules. */
    async upload(c: Caller, l: Locale, request: Request) {
      requireFreelancer(c)
      const stored = await files.receive(request, {
        kind: 'spreadsheet',
        purpose: 'rate-sheet',
        ownerId: c.userId,
      })
      await replaceFile(stored.id, (trx) => setRateSheet(trx, c.userId, stored.id))
      return ownFreelancer(c, l)
    },
    async remove(c: Caller, l: Locale) {
      requireFreelancer(c)
      await replaceFile(null, (trx) => setRateSheet(trx, c.userId, null))
      return ownFreelancer(c, l)
    },
  }

  // ---- profile images ---------------------------------------------------------------------------

  // The image lives on the user row (app_user.image_file_id), which identity reads for the token's
  // imageUrl and the top bar, so a new image shows on the next page at once.
  async function imageOf(userId: number) {
    const u = await db
      .selectFrom('app_user')
      .select('image_file_id')
      .where('id', '=', userId)
      .executeTakeFirst()
    return { imageUrl: u?.image_file_id != null ? fileUrl(u.image_file_id) : null }
  }
  /** Points the user row at another image (or none), answering the one it pointed at. */
  async function setUserImage(trx: Trx, userId: number, fileId: number | null) {
    const before = await forUpdate(
      trx.selectFrom('app_user').select('image_file_id').where('id', '=', userId),
    ).executeTakeFirst()
    await trx
      .updateTable('app_user')
      .set({ image_file_id: fileId, updated_at: nowIso() })
      .where('id', '=', userId)
      .execute()
    return before?.image_file_id ?? null
  }
  async function uploadImage(caller: Caller, role: number, request: Request) {
    requireRole(caller, role)
    const stored = await files.receive(request, {
      kind: 'image',
      purpose: 'profile-image',
      ownerId: caller.userId,
    })
    await replaceFile(stored.id, (trx) => setUserImage(trx, caller.userId, stored.id))
    await forgetSearches()
    await storeCompleteness(caller.userId, await completenessView(caller))
    return { imageUrl: fileUrl(stored.id) }
  }
  async function removeImage(caller: Caller, role: number) {
    requireRole(caller, role)
    await replaceFile(null, (trx) => setUserImage(trx, caller.userId, null))
    await forgetSearches()
    await storeCompleteness(caller.userId, await completenessView(caller))
    return { imageUrl: null }
  }
  async function publicImage(userId: number, role: number) {
    const card = await userCard(userId)
    if (!card || card.status !== 'Active' || !(await rolesOf(userId)).includes(role))
      throw notFound('Profile')
    return { imageUrl: card.image_file_id != null ? fileUrl(card.image_file_id) : null }
  }
  const images = {
    upload: uploadImage,
    remove: removeImage,
    own: (caller: Caller, role: number) => (requireRole(caller, role), imageOf(caller.userId)),
    public: publicImage,
  }

  // ---- individual clients and companies ----------------------------------------------------------

  async function ensureClient(trx: Trx, userId: number, kind: ClientKind) {
    const now = nowIso()
    await trx
      .insertInto('client_profile')
      .values({ user_id: userId, kind, who: '', what: '', description: '', created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute()
  }

  async function loadClient(userId: number, kind: ClientKind, locale: Locale): Promise<PublicClient | null> {
    const card = await userCard(userId)
    if (!card) return null
    const n = `name_${locale}` as const
    const [p, subs] = await Promise.all([
      db
        .selectFrom('client_profile as cp')
        .leftJoin('industry as i', 'i.id', 'cp.industry_id')
        .leftJoin('category as c', 'c.id', 'cp.category_id')
        .selectAll('cp')
        .select([`i.${n} as industry_name`, `c.${n} as category_name`])
        .where('cp.user_id', '=', userId)
        .executeTakeFirst(),
      db
        .selectFrom('client_subcategory as x')
        .innerJoin('subcategory as s', 's.id', 'x.subcategory_id')
        .select(['s.id', `s.${n} as name`])
        .where('x.user_id', '=', userId)
        .orderBy('s.sort_order')
        .execute(),
    ])
    return {
      ...personOf(card),
      kind,
      companyName: card.company_name,
      country: p?.country ?? null,
      countryName: countryName(locale, p?.country ?? null),
      city: p?.city ?? null,
      industry: p?.industry_id != null ? { id: p.industry_id, name: p.industry_name ?? '' } : null,
      website: p?.website ?? null,
      companySize: p?.company_size ?? null,
      foundedYear: p?.founded_year ?? null,
      who: p?.who ?? '',
      what: p?.what ?? '',
      description: p?.description ?? '',
      category: p?.category_id != null ? { id: p.category_id, name: p.category_name ?? '' } : null,
      subcategories: kind === 'individual' ? subs : [],
    }
  }

  function clientCompleteness(v: PublicClient) {
    if (v.kind === 'company') {
      return completenessOf(
        {
          image: v.imageUrl != null,
          basicDetails: !!v.country && !!v.industry,
          whoAreWe: !!v.who,
          whatDoWeDo: !!v.what,
          description: !!v.description,
        },
        companySections,
      )
    }
    return completenessOf(
      {
        image: v.imageUrl != null,
        basicDetails: !!v.country,
        whoIAm: !!v.who,
        whatIDo: !!v.what,
        description: !!v.description,
        categorization: !!v.category,
      },
      individualSections,
    )
  }

  async function ownClient(caller: Caller, kind: ClientKind, locale: Locale): Promise<OwnClient> {
    requireRole(caller, clientRole(kind))
    const view = await loadClient(caller.userId, kind, locale)
    if (!view) throw notFound('Profile')
    return { ...view, completeness: clientCompleteness(view) }
  }

  async function changeClient(
    caller: Caller,
    kind: ClientKind,
    locale: Locale,
    change: (trx: Trx) => Promise<void>,
  ) {
    requireRole(caller, clientRole(kind))
    await db.transaction().execute(async (trx) => {
      await ensureClient(trx, caller.userId, kind)
      await change(trx)
      await trx
        .updateTable('client_profile')
        .set({ updated_at: nowIso() })
        .where('user_id', '=', caller.userId)
        .execute()
    })
    return storeCompleteness(caller.userId, await ownClient(caller, kind, locale))
  }
  const setClient = (
    caller: Caller,
    kind: ClientKind,
    locale: Locale,
    values: Updateable<Database['client_profile']>,
  ) =>
    changeClient(
      caller,
      kind,
      locale,
      async (trx) =>
        void (await trx
          .updateTable('client_profile')
          .set(values)
          .where('user_id', '=', caller.userId)
          .execute()),
    )

  async function checkIndustry(trx: Trx, industryId: number | null | undefined) {
    if (industryId == null) return
    if (!(await trx.selectFrom('industry').select('id').where('id', '=', industryId).executeTakeFirst()))
      throw fieldError('industryId', 'is not a known industry')
  }

  async function publicClient(userId: number, kind: ClientKind, locale: Locale) {
    const roles = await rolesOf(userId)
    const view = roles.includes(clientRole(kind)) ? await loadClient(userId, kind, locale) : null
    const card = view ? await userCard(userId) : null
    if (!view || card?.status !== 'Active') throw notFound(kind === 'company' ? 'Company' : 'Client')
    return view
  }

  const clients = {
    mine: (c: Caller, kind: ClientKind, l: Locale) => ownClient(c, kind, l),
    public: publicClient,
    basics: (c: Caller, l: Locale, b: Body<'clientBasics'>) =>
      changeClient(c, 'individual', l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await checkIndustry(trx, b.industryId)
        await trx
          .updateTable('client_profile')
          .set({ country: b.country, city: b.city || null, industry_id: b.industryId ?? null })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    companyBasics: (c: Caller, l: Locale, b: Body<'companyBasics'>) =>
      changeClient(c, 'company', l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await checkIndustry(trx, b.industryId)
        await trx
          .updateTable('client_profile')
          .set({
            country: b.country,
            city: b.city || null,
            industry_id: b.industryId ?? null,
            website: b.website || null,
            company_size: b.companySize ?? null,
            founded_year: b.foundedYear ?? null,
          })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    who: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientText'>) =>
      setClient(c, kind, l, { who: b.text }),
    what: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientText'>) =>
      setClient(c, kind, l, { what: b.text }),
    description: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientDescription'>) =>
      setClient(c, kind, l, { description: b.description }),
    about: (c: Caller, kind: ClientKind, l: Locale, b: Body<'about'>) =>
      setClient(c, kind, l, { who: b.who, what: b.what, description: b.description }),
    categorization: (c: Caller, l: Locale, b: Body<'clientCategorization'>) =>
      changeClient(c, 'individual', l, async (trx) => {
        const { subs } = await checkCategorization(trx, b.categoryId, b.subcategoryIds, [])
        await trx
          .updateTable('client_profile')
          .set({ category_id: b.categoryId })
          .where('user_id', '=', c.userId)
          .execute()
        await trx.deleteFrom('client_subcategory').where('user_id', '=', c.userId).execute()
        if (subs.length)
          await trx
            .insertInto('client_subcategory')
            .values(subs.map((s) => ({ user_id: c.userId, subcategory_id: s })))
            .execute()
      }),
  }

  const completenessView = async (caller: Caller) => ({ completeness: await completeness(caller) })

  /** The caller's profile completeness in percent, whatever kind of account (0 for an admin). */
  async function completeness(caller: Caller, locale: Locale = 'en') {
    if (caller.roles.includes(Role.Freelancer)) return (await ownFreelancer(caller, locale)).completeness
    if (caller.roles.includes(Role.Company)) return (await ownClient(caller, 'company', locale)).completeness
    if (caller.roles.includes(Role.Client))
      return (await ownClient(caller, 'individual', locale)).completeness
    return { percent: 0, missing: [] }
  }

  // ---- payment methods --------------------------------------------------------------------------

  type PaymentRow = Database['payment_method'] & { id: number }
  const toPayment = (r: PaymentRow): PaymentMethod => ({
    id: r.id,
    kind: r.kind,
    holderName: r.holder_name,
    masked: paymentDestination(r).masked,
    bic: r.bic,
    bankName: r.bank_name,
    isDefault: r.is_default === 1,
    status: r.status,
    createdAt: r.created_at,
  })
  const paymentRows = (trx: Trx, userId: number) =>
    trx
      .selectFrom('payment_method')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('is_default', 'desc')
      .orderBy('id', 'desc')
      .execute() as Promise<PaymentRow[]>

  /** Exactly one active method is the default whenever there is an active one. */
  async function settleDefault(trx: Trx, userId: number, preferred?: number) {
    const rows = await trx
      .selectFrom('payment_method')
      .select(['id', 'is_default', 'status'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute()
    const active = rows.filter((r) => r.status === 'active')
    const chosen =
      (preferred && active.find((r) => r.id === preferred)) ||
      active.find((r) => r.is_default === 1) ||
      active[0]
    await trx
      .updateTable('payment_method')
      .set({ is_default: 0 })
      .where('user_id', '=', userId)
      .where('id', '!=', chosen?.id ?? 0)
      .execute()
    if (chosen)
      await trx.updateTable('payment_method').set({ is_default: 1 }).where('id', '=', chosen.id).execute()
  }

  async function ownPayment(trx: Trx, caller: Caller, id: number) {
    requireFreelancer(caller)
    const row = (await trx
      .selectFrom('payment_method')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', caller.userId)
      .executeTakeFirst()) as PaymentRow | undefined
    if (!row) throw notFound('Payment method')
    return row
  }

  const payments = {
    async list(caller: Caller, freelancerId: number) {
      requireFreelancer(caller)
      if (freelancerId !== caller.userId) throw forbidden()
      return { data: (await paymentRows(db, caller.userId)).map(toPayment) }
    },
    async add(caller: Caller, body: z.output<typeof paymentBodies.add>) {
      requireFreelancer(caller)
      const id = await db.transaction().execute(async (trx) => {
        const count = await trx
          .selectFrom('payment_method')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', caller.userId)
          .executeTakeFirstOrThrow()
        if (Number(count.n) >= limits.paymentMethods)
          throw fieldError('kind', `may list at most ${limits.paymentMethods} payment methods`)
        const now = nowIso()
        const row = await trx
          .insertInto('payment_method')
          .values({
            user_id: caller.userId,
            kind: body.kind,
            holder_name: body.holderName,
            iban: body.kind === 'bank' ? normalizeIban(body.iban) : null,
            bic: body.kind === 'bank' ? (body.bic ?? null) : null,
            bank_name: body.kind === 'bank' ? (body.bankName ?? null) : null,
            email: body.kind === 'paypal' ? body.email : null,
            stripe_account: body.kind === 'stripe_account' ? body.stripeAccount : null,
            is_default: 0,
            status: 'active',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await settleDefault(trx, caller.userId, body.makeDefault ? row.id : undefined)
        return row.id
      })
      return toPayment(await ownPayment(db, caller, id))
    },
    async update(caller: Caller, id: number, body: z.output<typeof paymentBodies.update>) {
      await db.transaction().execute(async (trx) => {
        const row = await ownPayment(trx, caller, id)
        if (row.kind !== 'paypal' && body.email)
          throw fieldError('email', 'does not apply to a bank account or Stripe account')
        if (row.kind !== 'bank' && (body.iban || body.bic || body.bankName))
          throw fieldError('iban', 'does not apply to a PayPal address or Stripe account')
        if (row.kind !== 'stripe_account' && body.stripeAccount)
          throw fieldError('stripeAccount', 'applies only to a Stripe account')
        const values =
          row.kind === 'bank'
            ? {
                holder_name: body.holderName,
                ...(body.iban ? { iban: normalizeIban(body.iban) } : {}),
                bic: body.bic ?? null,
                bank_name: body.bankName ?? null,
              }
            : row.kind === 'stripe_account'
              ? {
                  holder_name: body.holderName,
                  ...(body.stripeAccount ? { stripe_account: body.stripeAccount } : {}),
                }
              : { holder_name: body.holderName, ...(body.email ? { email: body.email } : {}) }
        await trx
          .updateTable('payment_method')
          .set({ ...values, updated_at: nowIso() })
          .where('id', '=', id)
          .where('user_id', '=', caller.userId)
          .execute()
      })
      return toPayment(await ownPayment(db, caller, id))
    },
    async setStatus(caller: Caller, id: number, body: z.output<typeof paymentBodies.status>) {
      if (!body.status && !body.isDefault) throw fieldError('status', 'is required (or isDefault)')
      if (body.status === 'inactive' && body.isDefault)
        throw fieldError('isDefault', 'an inactive method cannot be the default')
      await db.transaction().execute(async (trx) => {
        await ownPayment(trx, caller, id)
        const status = body.status ?? (body.isDefault ? 'active' : undefined)
        if (status)
          await trx
            .updateTable('payment_method')
            .set({ status, updated_at: nowIso() })
            .where('id', '=', id)
            .execute()
        if (status === 'inactive')
          await trx.updateTable('payment_method').set({ is_default: 0 }).where('id', '=', id).execute()
        await settleDefault(trx, caller.userId, body.isDefault ? id : undefined)
      })
      return { data: (await paymentRows(db, caller.userId)).map(toPayment) }
    },
    async remove(caller: Caller, id: number) {
      await db.transaction().execute(async (trx) => {
        await ownPayment(trx, caller, id)
        await trx
          .deleteFrom('payment_method')
          .where('id', '=', id)
          .where('user_id', '=', caller.userId)
          .execute()
        await settleDefault(trx, caller.userId)
      })
      return { message: 'Payment method removed' }
    },
  }

  // ---- Find Freelancers ---------------------------------------------------------------------------

  // The answers of recent searches, for 30 s: paging back and forth, the top bar's suggestions and
  // popular words then cost one query. A change to a freelancer profile clears them on every
  // instance (the cache bus, decision 269); other changes (ratings from reviews) show within the 30 s.
  const RECENT_SEARCH_MS = 30_000
  const recentSearches = new Map<string, { at: number; result: Awaited<ReturnType<typeof runSearch>> }>()
  // The countries and languages listed freelancers have (the filters offer only those), named
  // and sorted per language, kept as the recent searches are: cleared with them, 30 s at most.
  type Named = Array<{ code: string; name: string }>
  const recentFacets = new Map<
    Locale,
    { at: number; result: Promise<{ countries: Named; languages: Named }> }
  >()
  const forgetSearches = bus.share('freelancer-searches', () => {
    recentSearches.clear()
    recentFacets.clear()
  })

  function requireFinder(caller: Caller) {
    if (!caller.roles.includes(Role.Client) && !caller.roles.includes(Role.Company)) throw forbidden()
  }

  /**
   * Listed freelancers that pass every filter of the query (the text aside). `listed` already
   * says the account is active (listing.ts), so no user row is read until the page's own rows.
   */
  const profiles = () => db.selectFrom('freelancer_profile as fp')
  const listed = () => profiles().innerJoin('app_user as u', 'u.id', 'fp.user_id')
  function filtered(
    query: Omit<SearchQuery, 'sort' | 'page' | 'pageSize'>,
    from = profiles(),
    facetsAnswered = false,
  ) {
    let q = from.where('fp.listed', '=', 1)
    // The text match already holds these as facet tokens of its index (search-index.ts); asked
    // again as columns they would only tempt the planner away from that index.
    if (facetsAnswered) return ranged(query, q)
    if (query.categoryId) q = q.where('fp.category_id', '=', query.categoryId)
    // Set membership (IN) rather than EXISTS, so the planner may start from the (value, user_id) index when it is the most selective.
    if (query.subcategoryId)
      q = q.where(
        'fp.user_id',
        'in',
        db
          .selectFrom('freelancer_subcategory')
          .select('user_id')
          .where('subcategory_id', '=', query.subcategoryId),
      )
    for (const skillId of new Set(query.skills ?? []))
      q = q.where(
        'fp.user_id',
        'in',
        db.selectFrom('freelancer_skill').select('user_id').where('skill_id', '=', skillId),
      )
    if (query.language)
      q = q.where(
        'fp.user_id',
        'in',
        db.selectFrom('freelancer_language').select('user_id').where('language_code', '=', query.language),
      )
    if (query.country) q = q.where('fp.country', '=', query.country)
    if (query.experienceLevel) q = q.where('fp.experience_level', '=', query.experienceLevel)
    if (query.availability) q = q.where('fp.availability', '=', query.availability)
    if (query.currency) q = q.where('fp.currency', '=', query.currency)
    return ranged(query, q)
  }
  /** The range filters, which are never facets. */
  function ranged<Q extends ReturnType<typeof profiles>>(
    query: Omit<SearchQuery, 'sort' | 'page' | 'pageSize'>,
    q: Q,
  ): Q {
    if (query.minRate !== undefined) q = q.where('fp.hourly_rate_minor', '>=', query.minRate) as Q
    if (query.maxRate !== undefined) q = q.where('fp.hourly_rate_minor', '<=', query.maxRate) as Q
    if (query.minRating) q = q.where('fp.rating_x100', '>=', Math.round(query.minRating * 100)) as Q
    return q
  }

  /** The filtered freelancers that match a tier of the text; the LIMIT stops the scan past the cap. */
  function matching(text: FullTextMatch, query: SearchQuery, tier: 'head' | 'all', executor: DB) {
    return filtered(query, text.from(tier, executor), text.answersFacets).limit(searchCap + 1)
  }

  /**
   * Up to searchCap + 1 filtered matches in relevance order. Each query's LIMIT stops its scan, so
   * only the rows returned are ranked. Below the cap that is every match, ranked by score: order
   * and count are exact. Above it, the candidates are the matches in the title or skills (then
   * the others), so a common word still brings its best-fitting freelancers first.
   */
  async function rankedMatches(text: FullTextMatch, query: SearchQuery) {
    type Scored = { user_id: number; score: number }
    const byScore = (a: Scored, b: Scored) => Number(a.score) - Number(b.score) || b.user_id - a.user_id
    return index.withIndexScans(async (executor) => {
      const tier = (name: 'head' | 'all') =>
        matching(text, query, name, executor)
          .select(['fp.user_id', text.score.as('score')])
          .execute() as Promise<Scored[]>
      // The title and skills first: when they alone match past the cap (a common word), the
      // candidates are theirs and the rest of the text is never ranked.
      const head = (await tier('head')).sort(byScore)
      if (head.length > searchCap) return head.map((r) => r.user_id)
      const all = await tier('all')
      if (all.length <= searchCap) return all.sort(byScore).map((r) => r.user_id)
      const seen = new Set(head.map((r) => r.user_id))
      return [...head, ...all.filter((r) => !seen.has(r.user_id)).sort(byScore)]
        .slice(0, searchCap + 1)
        .map((r) => r.user_id)
    })
  }

  /** Up to searchCap + 1 filtered matches, in no particular order (for the other sorts). */
  async function unrankedMatches(text: FullTextMatch, query: SearchQuery) {
    return index.withIndexScans(async (executor) =>
      (await matching(text, query, 'all', executor).select('fp.user_id').execute()).map((r) => r.user_id),
    )
  }

  /** A query of profiles (as `fp`) in the order of a sort. */
  function inOrder<Q extends ProfilesQuery>(q: Q, sort: SearchQuery['sort']) {
    let ordered = q.select('fp.user_id')
    for (const [expression, direction] of sortOrders[sort])
      ordered = ordered.orderBy(sql.raw(expression), direction)
    return ordered
  }
  const idsOf = async (q: { compile(): CompiledQuery<{ user_id: number }> }, executor: DB = db) =>
    (await executor.executeQuery(q.compile())).rows.map((r) => r.user_id)

  // How many listed freelancers each sort bucket holds (sort-buckets.ts): it only sizes the probes,
  // so it is kept five minutes.
  const bucketCache = createShortCache(5 * 60_000)
  const bucketCounts = () => bucketCache.get('counts', () => countBuckets(db, dialect))

  /**
   * The first `wanted` matches of a text search in the order of its sort, when the words match
   * more than the cap: asked of the sort column's best buckets, then of about eight times as many
   * freelancers, until a probe holds `wanted` (everyone outside it sorts after). Null when the
   * sort has no buckets or no probe of few buckets holds enough; the caller then reads every match.
   */
  async function topInBuckets(
    text: FullTextMatch,
    query: SearchQuery,
    wanted: number,
  ): Promise<number[] | null> {
    const column = bucketColumnOf(query.sort)
    if (!column) return null
    const probes = probesFor(query.sort, wanted, await bucketCounts())
    return index.withIndexScans(async (executor) => {
      for (const buckets of probes) {
        // OFFSET 0 keeps the match a query of its own, so PostgreSQL answers it from the GIN index
        // and sorts the few rows it returns, instead of walking the order's index and checking
        // each profile's lexemes (SQLite's CROSS JOIN already drives from the text index).
        const match = filtered(query, text.from('all', executor, { column, buckets }), true).select(
          sortColumns,
        )
        const matched = dialect === 'postgres' ? match.offset(0) : match
        const ids = await idsOf(
          inOrder(executor.selectFrom(matched.as('fp')) as unknown as ProfilesQuery, query.sort).limit(
            wanted,
          ),
          executor,
        )
        if (ids.length >= wanted) return ids
      }
      return null
    })
  }

  /** A page of another order than relevance when more than the cap pass. */
  async function pastTheCap(text: FullTextMatch | null, query: SearchQuery, offset: number, size: number) {
    if (!text) return idsOf(inOrder(filtered(query), query.sort).limit(size).offset(offset))
    const top = await topInBuckets(text, query, offset + size)
    if (top) return top.slice(offset)
    // Every match as a set of ids, which PostgreSQL must take from the GIN index (search-index.ts).
    return index.withIndexScans((executor) =>
      idsOf(
        inOrder(filtered(query).where('fp.user_id', 'in', text.ids), query.sort)
          .limit(size)
          .offset(offset),
        executor,
      ),
    )
  }

  const hitColumns = [
    'fp.user_id',
    'fp.title',
    'fp.overview',
    'fp.country',
    'fp.experience_level',
    'fp.availability',
    'fp.hourly_rate_minor',
    'fp.currency',
    'fp.rating_x100',
    'fp.rating_count',
    'u.first_name',
    'u.last_name',
    'u.company_name',
    'u.status',
    'u.image_file_id',
    'img.type as image_type',
  ] as const
  const hits = () => listed().leftJoin('stored_file as img', 'img.id', 'u.image_file_id').select(hitColumns)
  type HitRow = Awaited<ReturnType<ReturnType<typeof hits>['execute']>>[number]
  /** The hit rows of these freelancers, in this order, and their skills named in `locale` (read side by side). */
  async function hitsInOrder(ids: number[], locale: Locale) {
    if (!ids.length) return { rows: [], skills: [] }
    const n = `name_${locale}` as const
    const [found, skills] = await Promise.all([
      hits().where('fp.user_id', 'in', ids).execute(),
      db
        .selectFrom('freelancer_skill as x')
        .innerJoin('skill as s', 's.id', 'x.skill_id')
        .select(['x.user_id', 's.id', `s.${n} as name`])
        .where('x.user_id', 'in', ids)
        .orderBy(`s.${n}`)
        .execute(),
    ])
    const byId = new Map(found.map((r) => [r.user_id, r]))
    return { rows: ids.map((id) => byId.get(id)).filter((r): r is HitRow => !!r), skills }
  }

  /**
   * Find Freelancers. Counting stops at searchCap ("1,000+"), paging stops there too (an offset
   * never passes it), and a text search ranks only the rows it returns (rankedMatches), so the
   * work per request is bounded whatever the number of freelancers or how common the words.
   */
  async function search(caller: Caller, locale: Locale, query: SearchQuery) {
    requireFinder(caller)
    const key = JSON.stringify([locale, query])
    const cached = recentSearches.get(key)
    if (cached && Date.now() - cached.at < RECENT_SEARCH_MS) return cached.result
    const result = await runSearch(locale, query)
    if (recentSearches.size >= 500) recentSearches.delete(recentSearches.keys().next().value!)
    recentSearches.set(key, { at: Date.now(), result })
    return result
  }

  async function runSearch(locale: Locale, query: SearchQuery) {
    const text = await index.match(query.q, query)
    const offset = (query.page - 1) * query.pageSize
    const size = Math.max(0, Math.min(query.pageSize, searchCap - offset))
    let found: number
    let pageIds: number[] = []
    if (text && query.sort === 'relevance') {
      const ids = await rankedMatches(text, query)
      found = ids.length
      pageIds = ids.slice(offset, offset + size)
    } else {
      // Another order comes from the profile table. The freelancers that pass (the text and the
      // filters) are first taken as a bounded list, from whichever index is most selective; below
      // the cap that list is every one of them and the page is sorted from it. Above it, with words,
      // the page comes from the best buckets of the sort column (topInBuckets), or, when those hold
      // too few, from the order's index with the text as a set of ids; without words the order's
      // index drives (the matches are dense, so the scan stops soon).
      const passing = text
        ? await unrankedMatches(text, query)
        : (
            await filtered(query)
              .select('fp.user_id')
              .limit(searchCap + 1)
              .execute()
          ).map((r) => r.user_id)
      found = passing.length
      if (found && size)
        pageIds =
          found <= searchCap
            ? await idsOf(
                inOrder(profiles().where('fp.user_id', 'in', passing), query.sort)
                  .limit(size)
                  .offset(offset),
              )
            : await pastTheCap(text, query, offset, size)
    }
    // The page's own rows are read after, by id (joining every passing profile to its user first
    // made PostgreSQL scan all users).
    const { rows, skills } = await hitsInOrder(pageIds, locale)
    const capped = found > searchCap
    const total = Math.min(found, searchCap)
    const pages = Math.max(1, Math.ceil(total / query.pageSize))
    const skillsOf = Map.groupBy(skills, (s) => s.user_id)
    const data: SearchHit[] = rows.map((r) => ({
      userId: r.user_id,
      name: displayName(r),
      imageUrl: r.image_file_id != null ? fileUrl(r.image_file_id) : null,
      imageDisplayable: r.image_file_id != null && displayableType(r.image_type),
      title: r.title,
      overview: r.overview.length > 300 ? `${r.overview.slice(0, 297)}…` : r.overview,
      country: r.country,
      countryName: countryName(locale, r.country),
      experienceLevel: r.experience_level,
      availability: r.availability,
      hourlyRate:
        r.hourly_rate_minor != null && r.currency
          ? { amountMinor: r.hourly_rate_minor, currency: r.currency }
          : null,
      rating: { average: r.rating_x100 / 100, count: r.rating_count },
      skills: (skillsOf.get(r.user_id) ?? []).slice(0, 8).map(({ id, name }) => ({ id, name })),
    }))
    return { data, total, capped, page: query.page, pageSize: query.pageSize, pages }
  }

  function searchFacets(caller: Caller, locale: Locale) {
    requireFinder(caller)
    const kept = recentFacets.get(locale)
    if (kept && Date.now() - kept.at < RECENT_SEARCH_MS) return kept.result
    const collator = new Intl.Collator(locale)
    const named = (codes: string[], nameOf: (code: string) => string) =>
      codes.map((code) => ({ code, name: nameOf(code) })).sort((a, b) => collator.compare(a.name, b.name))
    const result = Promise.all([
      profiles()
        .select('fp.country')
        .distinct()
        .where('fp.listed', '=', 1)
        .where('fp.country', 'is not', null)
        .execute(),
      db
        .selectFrom('freelancer_language')
        .select('language_code')
        .distinct()
        .where('user_id', 'in', profiles().select('fp.user_id').where('fp.listed', '=', 1))
        .execute(),
    ]).then(([countries, languages]) => ({
      countries: named(
        countries.map((r) => r.country!),
        (code) => countryName(locale, code)!,
      ),
      languages: named(
        languages.map((r) => r.language_code),
        (code) => languageName(locale, code),
      ),
    }))
    recentFacets.set(locale, { at: Date.now(), result })
    result.catch(() => recentFacets.delete(locale))
    return result
  }

  async function suggestions(caller: Caller, term: string) {
    requireFinder(caller)
    const text = await index.match(term)
    if (!text) return { data: [] }
    const ids = (await rankedMatches(text, searchQuery.parse({}))).slice(0, 8)
    const byId = new Map(
      (ids.length
        ? await db
            .selectFrom('freelancer_profile as fp')
            .innerJoin('app_user as u', 'u.id', 'fp.user_id')
            .select(['fp.user_id', 'fp.title', 'u.first_name', 'u.last_name', 'u.company_name', 'u.status'])
            .where('fp.user_id', 'in', ids)
            .execute()
        : []
      ).map((r) => [r.user_id, r]),
    )
    return {
      data: ids.flatMap((id) => {
        const r = byId.get(id)
        return r ? [{ userId: r.user_id, name: displayName(r), title: r.title }] : []
      }),
    }
  }

  return {
    freelancer,
    rateSheet,
    clients,
    images,
    payments,
    search,
    searchFacets,
    suggestions,
    completeness,
    percentFor,
    renamed,
    reindex: (userId: number) => reindex(db, userId).finally(forgetSearches),
    index,
  }
}

export type ProfilesService = ReturnType<typeof createProfilesService>
