import { Role } from '#server/modules/identity/permissions.ts'

/** Which profile an account edits: a freelancer's, an individual client's, a company's, or none (an administrator). */
export type Kind = 'freelancer' | 'individual' | 'company' | 'none'
export const kindOf = (roles: number[]): Kind =>
  roles.includes(Role.Freelancer)
    ? 'freelancer'
    : roles.includes(Role.Company)
      ? 'company'
      : roles.includes(Role.Client)
        ? 'individual'
        : 'none'

const freelancerSections = [
  'image',
  'headline',
  'about',
  'categories',
  'rates',
  'personal',
  'languages',
  'education',
  'experience',
  'certifications',
  'portfolio',
  'documents',
]
const individualSections = ['image', 'basics', 'about', 'categories']
const companySections = ['image', 'basics', 'about']

/** The sections of /profile for this kind of account, in page order (the ids of their cards). */
export const sectionsOf = (kind: Kind): string[] =>
  kind === 'freelancer'
    ? freelancerSections
    : kind === 'company'
      ? companySections
      : kind === 'individual'
        ? individualSections
        : []

const titles: Record<string, string> = {
  image: 'sections.image',
  headline: 'sections.titleOverview',
  about: 'sections.about',
  categories: 'sections.categorization',
  rates: 'sections.rates',
  personal: 'sections.personal',
  languages: 'sections.languages',
  education: 'sections.educations',
  experience: 'sections.employmentHistory',
  certifications: 'sections.certifications',
  portfolio: 'sections.portfolios',
  documents: 'sections.documents',
  basics: 'sections.basicDetails',
}

/** The title key (profile namespace) of a section for this kind of account: a company's "about us", a client's "areas of interest". */
export const sectionTitle = (id: string, kind: Kind) =>
  id === 'about' && kind === 'company'
    ? 'sections.aboutUs'
    : id === 'categories' && kind !== 'freelancer'
      ? 'sections.interests'
      : titles[id]
