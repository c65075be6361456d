// Shapes of the seed content. Everything a visitor reads is Localized (all five UI languages);
// user-generated demo content (profiles, projects) is English only.

export type Locale = 'en' | 'es' | 'de' | 'it' | 'ru'
export type Localized = Record<Locale, string>

export const locales: readonly Locale[] = ['en', 'es', 'de', 'it', 'ru']

export type Skill = { slug: string; name: Localized }

export type Subcategory = { slug: string; name: Localized; skills: string[] }

export type Area = {
  slug: string
  name: Localized
  description: Localized
  /** Public path of the category image, e.g. '/images/categories/engineering.svg'. */
  image: string
  subcategories: Subcategory[]
}

export type Industry = { slug: string; name: Localized }

export type ExperienceLevelSlug = 'entry' | 'intermediate' | 'expert'
export type ExperienceLevel = { slug: ExperienceLevelSlug; name: Localized; description: Localized }

export type FaqAudience = 'client' | 'freelancer' | 'all'
export type FaqEntry = { slug: string; question: Localized; answer: Localized; audience: FaqAudience }

export type BlogPost = {
  slug: string
  title: Localized
  summary: Localized
  /** 3–6 short plain-text paragraphs separated by a blank line ("\n\n"). */
  body: Localized
  author: string
  /** ISO date (YYYY-MM-DD). */
  publishedAt: string
  /** Kebab-case tags. */
  tags: string[]
}

export type HomeBox = { slug: string; icon: string; title: Localized; body: Localized }

export type ServiceHighlight = { slug: string; areaSlug: string; title: Localized; body: Localized }

export type PartnerLogo = { name: string; /** Public path, e.g. '/images/logos/<slug>.svg'. */ image: string }

export type Currency = 'EUR' | 'USD'

export type DemoClient = {
  kind: 'individual' | 'company'
  firstName: string
  lastName: string
  companyName?: string
  email: string
  /** ISO 3166-1 alpha-2. */
  country: string
  city: string
  /** Industry slug from reference.ts. */
  industry: string
  bio: string
}

export type DemoFreelancer = {
  firstName: string
  lastName: string
  email: string
  title: string
  overview: string
  /** Integer minor units (cents) per hour. */
  hourlyRateMinor: number
  currency: Currency
  skills: string[]
  subcategories: string[]
  /** ISO 3166-1 alpha-2. */
  country: string
  city: string
  /** ISO 639-1 codes from reference.ts. */
  languages: string[]
  experienceLevel: ExperienceLevelSlug
}

export type DemoProject = {
  slug: string
  title: string
  description: string
  clientEmail: string
  subcategory: string
  skills: string[]
  budgetType: 'fixed' | 'hourly'
  /** Integer minor units: the total for 'fixed', the maximum hourly rate for 'hourly'. */
  budgetMinor: number
  /** 'hourly' only: the lowest hourly rate and the hours a week the client expects. */
  hourly?: { budgetMinMinor: number; hoursPerWeek: number }
  currency: Currency
  durationDays: number
  experienceLevel: ExperienceLevelSlug
  remote: boolean
  /** City and country of the site when the work is (partly) on site. */
  location?: string
}
