import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import type { OwnFreelancer, PublicFreelancer } from './contract.ts'
import { completenessOf, freelancerSections, type SectionKey } from './rules.ts'
import { requireFreelancer, rolesOf } from './access.ts'
import { countryName, fileLinks, languageName, personOf, userCard, type FileLink } from './display.ts'
import { isVerified } from '../verification/verified.ts'

// Reading a freelancer's profile: the public page anyone may open while the account is active,
// and the freelancer's own editor view, which adds gender and what is still missing.

/** The profile row and each list section of one freelancer, read side by side. */
function readSections(db: DB, userId: number, locale: Locale) {
  const n = `name_${locale}` as const
  return Promise.all([
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
}
type Sections = Awaited<ReturnType<typeof readSections>>

/** The list sections as the API shows them; `links` holds the portfolio's files. */
function listSections(sections: Sections, locale: Locale, links: Map<number, FileLink>) {
  const [, , , langs, edus, jobs, certs, items] = sections
  const link = (id: number | null) => (id != null && links.get(id)) || null
  return {
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
      image: link(i.image_file_id),
      document: link(i.document_file_id),
    })),
  }
}

/** A freelancer's profile as anyone sees it, with the gender (only its owner sees) and the account card; null without an account. */
async function loadFreelancer(db: DB, userId: number, locale: Locale) {
  const card = await userCard(db, userId)
  if (!card) return null
  const [sections, verified] = await Promise.all([readSections(db, userId, locale), isVerified(db, userId)])
  const [p, subs, skills, , , , , items] = sections
  const links = await fileLinks(
    db,
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
    ...listSections(sections, locale, links),
    rateSheet: (p?.rate_sheet_file_id != null && links.get(p.rate_sheet_file_id)) || null,
    rating: { average: (p?.rating_x100 ?? 0) / 100, count: p?.rating_count ?? 0 },
    verified,
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

/** The caller's own profile, for its editor: gender and completeness included. */
export async function ownFreelancer(db: DB, caller: Caller, locale: Locale): Promise<OwnFreelancer> {
  requireFreelancer(caller)
  const loaded = await loadFreelancer(db, caller.userId, locale)
  if (!loaded) throw notFound('Profile')
  return { ...loaded.view, gender: loaded.gender, completeness: freelancerCompleteness(loaded.view) }
}

/** A freelancer's public page: 404 unless the account is an active freelancer's. */
export async function publicFreelancer(db: DB, userId: number, locale: Locale): Promise<PublicFreelancer> {
  const roles = await rolesOf(db, userId)
  const loaded = roles.includes(Role.Freelancer) ? await loadFreelancer(db, userId, locale) : null
  if (!loaded || loaded.card.status !== 'Active') throw notFound('Freelancer')
  return loaded.view
}
