import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'
import { bodies } from './schemas/inputs.ts'
import { imageUrl, ownFreelancer, publicFreelancer } from './schemas/outputs.ts'
import { languageCode } from './schemas/search.ts'
import { clientEndpoints } from './endpoints/clients.ts'
import { paymentEndpoints } from './endpoints/payments.ts'
import { searchEndpoints } from './endpoints/search.ts'
import { item, tags } from './endpoints/shared.ts'

// Profiles of docs/product.md §7: freelancers/profile/..., clients/profile/..., companies/profile/..., the
// public views, profile images, freelancer payment methods and Find Freelancers' search. What goes
// in is in schemas/inputs.ts (shared with the profile forms), what comes back in schemas/outputs.ts.
export { bodies, paymentBodies, paymentMethodInputs } from './schemas/inputs.ts'
export * from './schemas/outputs.ts'
export { searchQuery, type SearchQuery } from './schemas/search.ts'

const F = tags.freelancer
const own = <B extends z.ZodType>(
  path: string,
  summary: string,
  body: B,
  tag = F,
  method: 'PUT' | 'POST' = 'PUT',
) => endpoint({ method, path, summary, tag, access: 'user', body, response: ownFreelancer })

export const profilesContract = {
  // Freelancer, the owner's side.
  freelancerMine: endpoint({
    method: 'GET',
    path: 'freelancers/profile',
    summary: "The caller's freelancer profile, every section, with its completeness",
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  freelancerDescription: own('freelancers/profile/description', 'Set the description', bodies.description),
  freelancerTitle: own('freelancers/profile/title', 'Set the professional title', bodies.title),
  freelancerTitleOverview: own(
    'freelancers/profile/title-overview',
    'Set the title and the overview',
    bodies.titleOverview,
  ),
  freelancerExperienceLevel: own(
    'freelancers/profile/experience-level',
    'Set the experience level',
    bodies.experienceLevel,
  ),
  freelancerYears: own(
    'freelancers/profile/years-of-experience',
    'Set the years of experience',
    bodies.yearsOfExperience,
  ),
  freelancerCountry: own('freelancers/profile/country', 'Set the country and city', bodies.country),
  freelancerAvailability: own(
    'freelancers/profile/availability',
    'Set the availability',
    bodies.availability,
  ),
  freelancerHourlyRate: own(
    'freelancers/profile/hourly-rate',
    'Set the hourly rate (minor units with a currency)',
    bodies.hourlyRate,
  ),
  freelancerCategorization: own(
    'freelancers/profile/categorization',
    'Set the category, subcategories and skills',
    bodies.categorization,
  ),
  freelancerGender: own('freelancers/profile/gender', 'Set the gender (never shown publicly)', bodies.gender),
  freelancerDetails: own(
    'freelancers/profile/details',
    'Set any of experience level, years, availability, hourly rate, country and city, and gender in one change (the fields left out stay as they are)',
    bodies.details,
  ),
  languageAdd: own(
    'freelancers/profile/languages',
    'Add a language with its level',
    bodies.language,
    F,
    'POST',
  ),
  languageUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/languages/{code}',
    summary: 'Change the level of a language',
    tag: F,
    access: 'user',
    params: z.object({ code: languageCode }),
    body: bodies.languageLevel,
    response: ownFreelancer,
  }),
  languageDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/languages/{code}',
    summary: 'Remove a language',
    tag: F,
    access: 'user',
    params: z.object({ code: languageCode }),
    response: ownFreelancer,
  }),
  educationAdd: own('freelancers/profile/educations', 'Add an education', bodies.education, F, 'POST'),
  educationUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/educations/{id}',
    summary: 'Change an education',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.education,
    response: ownFreelancer,
  }),
  educationDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/educations/{id}',
    summary: 'Remove an education',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  employmentAdd: own(
    'freelancers/profile/employment-history',
    'Add a position to the employment history',
    bodies.employment,
    F,
    'POST',
  ),
  employmentUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/employment-history/{id}',
    summary: 'Change a position',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.employment,
    response: ownFreelancer,
  }),
  employmentDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/employment-history/{id}',
    summary: 'Remove a position',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  certificationAdd: own(
    'freelancers/profile/certifications',
    'Add a certification',
    bodies.certification,
    F,
    'POST',
  ),
  certificationUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/certifications/{id}',
    summary: 'Change a certification',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.certification,
    response: ownFreelancer,
  }),
  certificationDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/certifications/{id}',
    summary: 'Remove a certification',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioAdd: own(
    'freelancers/profile/portfolios',
    'Add a portfolio item (its image and file are uploaded to it afterwards)',
    bodies.portfolio,
    F,
    'POST',
  ),
  portfolioUpdate: endpoint({
    method: 'PUT',
    path: 'freelancers/profile/portfolios/{id}',
    summary: 'Change a portfolio item',
    tag: F,
    access: 'user',
    params: item,
    body: bodies.portfolio,
    response: ownFreelancer,
  }),
  portfolioDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/portfolios/{id}',
    summary: 'Remove a portfolio item with its files',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioImage: endpoint({
    method: 'POST',
    path: 'freelancers/profile/portfolios/{id}/image',
    summary:
      'Upload the picture of a portfolio item (multipart field "file"; docs/product.md §5 image rules)',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  portfolioFile: endpoint({
    method: 'POST',
    path: 'freelancers/profile/portfolios/{id}/file',
    summary: 'Upload a document for a portfolio item (multipart field "file": pdf, drawings, spreadsheets…)',
    tag: F,
    access: 'user',
    params: item,
    response: ownFreelancer,
  }),
  rateSheetUpload: endpoint({
    method: 'POST',
    path: 'freelancers/profile/rate-sheet',
    summary:
      'Upload the schedule of rates (multipart field "file"; docs/product.md §5 spreadsheet rules: xlsx or csv), replacing the previous one',
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  rateSheetDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/rate-sheet',
    summary: 'Remove the schedule of rates',
    tag: F,
    access: 'user',
    response: ownFreelancer,
  }),
  freelancerImageUpload: endpoint({
    method: 'POST',
    path: 'freelancers/profile/image',
    summary: 'Upload the freelancer\'s profile image (multipart field "file"); the top bar shows it at once',
    tag: F,
    access: 'user',
    response: imageUrl,
  }),
  freelancerImage: endpoint({
    method: 'GET',
    path: 'freelancers/profile/image',
    summary: "The freelancer's profile image URL",
    tag: F,
    access: 'user',
    response: imageUrl,
  }),
  freelancerImageDelete: endpoint({
    method: 'DELETE',
    path: 'freelancers/profile/image',
    summary: 'Remove the profile image',
    tag: F,
    access: 'user',
    response: imageUrl,
  }),

  // Freelancer, public views (after the owner's paths, which they would otherwise shadow).
  freelancerPublic: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/profile',
    summary: "A freelancer's public profile, every public section",
    tag: F,
    access: 'public',
    params: item,
    response: publicFreelancer,
  }),
  freelancerPublicImage: endpoint({
    method: 'GET',
    path: 'freelancers/{id}/profile/image',
    summary: "A freelancer's profile image URL",
    tag: F,
    access: 'public',
    params: item,
    response: imageUrl,
  }),
  ...clientEndpoints,
  ...paymentEndpoints,
  ...searchEndpoints,
}
