import { implement } from '#server/api/handler.ts'
import { Role } from '../identity/permissions.ts'
import { profilesContract as c } from './contract.ts'
import type { ProfilesService } from './service.ts'

// The profiles API, one list of routes per part of it.

/** The freelancer's own profile editor. */
function freelancerRoutes(profiles: ProfilesService) {
  const f = profiles.freelancer
  return [
    implement(c.freelancerMine, ({ ctx }) => f.mine(ctx.caller!, ctx.locale)),
    implement(c.freelancerDescription, ({ body, ctx }) => f.description(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerTitle, ({ body, ctx }) => f.title(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerTitleOverview, ({ body, ctx }) => f.titleOverview(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerExperienceLevel, ({ body, ctx }) =>
      f.experienceLevel(ctx.caller!, ctx.locale, body),
    ),
    implement(c.freelancerYears, ({ body, ctx }) => f.yearsOfExperience(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerCountry, ({ body, ctx }) => f.country(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerAvailability, ({ body, ctx }) => f.availability(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerHourlyRate, ({ body, ctx }) => f.hourlyRate(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerCategorization, ({ body, ctx }) => f.categorization(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerGender, ({ body, ctx }) => f.gender(ctx.caller!, ctx.locale, body)),
    implement(c.freelancerDetails, ({ body, ctx }) => f.details(ctx.caller!, ctx.locale, body)),
  ]
}

/** Languages, education, employment, certifications and portfolio items. */
function sectionRoutes(profiles: ProfilesService) {
  const f = profiles.freelancer
  return [
    implement(c.languageAdd, ({ body, ctx }) => f.languageAdd(ctx.caller!, ctx.locale, body)),
    implement(c.languageUpdate, ({ params, body, ctx }) =>
      f.languageUpdate(ctx.caller!, ctx.locale, params.code, body),
    ),
    implement(c.languageDelete, ({ params, ctx }) => f.languageDelete(ctx.caller!, ctx.locale, params.code)),
    implement(c.educationAdd, ({ body, ctx }) => f.educationAdd(ctx.caller!, ctx.locale, body)),
    implement(c.educationUpdate, ({ params, body, ctx }) =>
      f.educationUpdate(ctx.caller!, ctx.locale, params.id, body),
    ),
    implement(c.educationDelete, ({ params, ctx }) => f.educationDelete(ctx.caller!, ctx.locale, params.id)),
    implement(c.employmentAdd, ({ body, ctx }) => f.employmentAdd(ctx.caller!, ctx.locale, body)),
    implement(c.employmentUpdate, ({ params, body, ctx }) =>
      f.employmentUpdate(ctx.caller!, ctx.locale, params.id, body),
    ),
    implement(c.employmentDelete, ({ params, ctx }) =>
      f.employmentDelete(ctx.caller!, ctx.locale, params.id),
    ),
    implement(c.certificationAdd, ({ body, ctx }) => f.certificationAdd(ctx.caller!, ctx.locale, body)),
    implement(c.certificationUpdate, ({ params, body, ctx }) =>
      f.certificationUpdate(ctx.caller!, ctx.locale, params.id, body),
    ),
    implement(c.certificationDelete, ({ params, ctx }) =>
      f.certificationDelete(ctx.caller!, ctx.locale, params.id),
    ),
    implement(c.portfolioAdd, ({ body, ctx }) => f.portfolioAdd(ctx.caller!, ctx.locale, body)),
    implement(c.portfolioUpdate, ({ params, body, ctx }) =>
      f.portfolioUpdate(ctx.caller!, ctx.locale, params.id, body),
    ),
    implement(c.portfolioDelete, ({ params, ctx }) => f.portfolioDelete(ctx.caller!, ctx.locale, params.id)),
  ]
}

/** Portfolio files, the rate sheet and the freelancer's picture. */
function freelancerFileRoutes(profiles: ProfilesService) {
  const f = profiles.freelancer
  const img = profiles.images
  return [
    implement(c.portfolioImage, ({ params, ctx }) =>
      f.portfolioUpload(ctx.caller!, ctx.locale, params.id, 'image', ctx.request),
    ),
    implement(c.portfolioFile, ({ params, ctx }) =>
      f.portfolioUpload(ctx.caller!, ctx.locale, params.id, 'document', ctx.request),
    ),
    implement(c.rateSheetUpload, ({ ctx }) =>
      profiles.rateSheet.upload(ctx.caller!, ctx.locale, ctx.request),
    ),
    implement(c.rateSheetDelete, ({ ctx }) => profiles.rateSheet.remove(ctx.caller!, ctx.locale)),
    implement(c.freelancerImageUpload, ({ ctx }) => img.upload(ctx.caller!, Role.Freelancer, ctx.request)),
    implement(c.freelancerImage, ({ ctx }) => img.own(ctx.caller!, Role.Freelancer)),
    implement(c.freelancerImageDelete, ({ ctx }) => img.remove(ctx.caller!, Role.Freelancer)),
  ]
}

function clientRoutes(profiles: ProfilesService) {
  const k = profiles.clients
  const img = profiles.images
  return [
    implement(c.clientMine, ({ ctx }) => k.mine(ctx.caller!, 'individual', ctx.locale)),
    implement(c.clientBasics, ({ body, ctx }) => k.basics(ctx.caller!, ctx.locale, body)),
    implement(c.clientWho, ({ body, ctx }) => k.who(ctx.caller!, 'individual', ctx.locale, body)),
    implement(c.clientWhat, ({ body, ctx }) => k.what(ctx.caller!, 'individual', ctx.locale, body)),
    implement(c.clientDescription, ({ body, ctx }) =>
      k.description(ctx.caller!, 'individual', ctx.locale, body),
    ),
    implement(c.clientAbout, ({ body, ctx }) => k.about(ctx.caller!, 'individual', ctx.locale, body)),
    implement(c.clientCategorization, ({ body, ctx }) => k.categorization(ctx.caller!, ctx.locale, body)),
    implement(c.clientImageUpload, ({ ctx }) => img.upload(ctx.caller!, Role.Client, ctx.request)),
    implement(c.clientImage, ({ ctx }) => img.own(ctx.caller!, Role.Client)),
    implement(c.clientPublic, ({ params, ctx }) => k.public(params.id, 'individual', ctx.locale)),
    implement(c.clientPublicBasics, ({ params, ctx }) => k.public(params.id, 'individual', ctx.locale)),
    implement(c.clientPublicImage, ({ params }) => img.public(params.id, Role.Client)),
  ]
}

function companyRoutes(profiles: ProfilesService) {
  const k = profiles.clients
  const img = profiles.images
  return [
    implement(c.companyMine, ({ ctx }) => k.mine(ctx.caller!, 'company', ctx.locale)),
    implement(c.companyBasics, ({ body, ctx }) => k.companyBasics(ctx.caller!, ctx.locale, body)),
    implement(c.companyWho, ({ body, ctx }) => k.who(ctx.caller!, 'company', ctx.locale, body)),
    implement(c.companyWhat, ({ body, ctx }) => k.what(ctx.caller!, 'company', ctx.locale, body)),
    implement(c.companyDescription, ({ body, ctx }) =>
      k.description(ctx.caller!, 'company', ctx.locale, body),
    ),
    implement(c.companyAbout, ({ body, ctx }) => k.about(ctx.caller!, 'company', ctx.locale, body)),
    implement(c.companyImageUpload, ({ ctx }) => img.upload(ctx.caller!, Role.Company, ctx.request)),
    implement(c.companyImage, ({ ctx }) => img.own(ctx.caller!, Role.Company)),
    implement(c.companyPublic, ({ params, ctx }) => k.public(params.id, 'company', ctx.locale)),
    implement(c.companyPublicImage, ({ params }) => img.public(params.id, Role.Company)),
  ]
}

/** Payment methods, Find Freelancers and the freelancer's public page. */
function paymentAndSearchRoutes(profiles: ProfilesService) {
  const pay = profiles.payments
  const img = profiles.images
  return [
    implement(c.paymentAdd, ({ body, ctx }) => pay.add(ctx.caller!, body)),
    implement(c.paymentList, ({ params, ctx }) => pay.list(ctx.caller!, params.id)),
    implement(c.paymentDelete, ({ params, ctx }) => pay.remove(ctx.caller!, params.id)),
    implement(c.paymentUpdate, ({ params, body, ctx }) => pay.update(ctx.caller!, params.id, body)),
    implement(c.paymentStatus, ({ params, body, ctx }) => pay.setStatus(ctx.caller!, params.id, body)),

    implement(c.search, ({ query, ctx }) => profiles.search(ctx.caller!, ctx.locale, query)),
    implement(c.suggestions, ({ query, ctx }) => profiles.suggestions(ctx.caller!, query.q)),
    implement(c.searchFacets, ({ ctx }) => profiles.searchFacets(ctx.caller!, ctx.locale)),

    implement(c.freelancerPublic, ({ params, ctx }) => profiles.freelancer.public(params.id, ctx.locale)),
    implement(c.freelancerPublicImage, ({ params }) => img.public(params.id, Role.Freelancer)),
  ]
}

export function profilesRoutes(profiles: ProfilesService) {
  return [
    ...freelancerRoutes(profiles),
    ...sectionRoutes(profiles),
    ...freelancerFileRoutes(profiles),
    ...clientRoutes(profiles),
    ...companyRoutes(profiles),
    ...paymentAndSearchRoutes(profiles),
  ]
}
