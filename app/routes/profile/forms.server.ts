import { z } from 'zod'
import { bodies, paymentBodies, paymentMethodInputs } from '#server/modules/profiles/schemas/inputs.ts'

// Which schema each profile form parses with: the API's own input schemas
// (server/modules/profiles/schemas/inputs.ts), so a field, its default and its rules are written
// once and the form's text becomes the API's values there (a rate typed as "45.50"). The few forms
// that only name a row to act on (remove, a language's code) have their own small schemas.
const rowId = z.coerce.number().int().positive()

export const profileForms = {
  titleOverview: bodies.titleOverview,
  description: bodies.description,
  /** Rate and availability (one section, one Save): what is left empty stays as it is. */
  rates: bodies.details,
  /** Location and gender: a city needs its country. */
  personal: bodies.details,
  /** A language and its level: a new one is added, a listed one gets the new level. */
  language: bodies.language,
  categorization: bodies.categorization,
  languageDelete: z.object({ code: z.string().regex(/^[a-z]{2,3}$/) }),
  education: bodies.education,
  employment: bodies.employment,
  certification: bodies.certification,
  portfolio: bodies.portfolio,
  remove: z.object({ id: rowId }),
  /** A form with nothing to fill in (removing the schedule of rates). */
  confirm: z.object({}),
  clientBasics: bodies.clientBasics,
  companyBasics: bodies.companyBasics,
  /** A client's or company's "about" section: who, what and the description. */
  about: bodies.about,
  clientCategorization: bodies.clientCategorization,
}

/** Payment Details: each kind of method's form sends its `kind` as a hidden field. */
export const paymentForms = {
  bank: paymentMethodInputs.bank,
  paypal: paymentMethodInputs.paypal,
  update: paymentBodies.update,
  status: z.object({ id: rowId, change: z.enum(['default', 'activate', 'deactivate', 'delete']) }),
}

/** The list item a form edits (absent: a new one). */
export function itemIdOf(form: FormData) {
  const id = Number(form.get('id') ?? '')
  return Number.isInteger(id) && id > 0 ? id : undefined
}
