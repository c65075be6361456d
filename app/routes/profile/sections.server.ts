import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { successOperation } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import type { Endpoint } from '#server/api/contract.ts'
import { profilesContract as pc } from '#server/modules/profiles/contract.ts'
import { itemIdOf, profileForms as f } from './forms.server'
import { uploadCodeOf, uploadProblemText, type ActionResult } from './fields'
import type { Kind } from './kind'
import { forwardUpload } from './upload.server'

// What each profile form does: its schema (the API's own, app/routes/profile/forms.server.ts), the one
// API call it makes with the parsed body, and the section (the id of its card on /profile) that the
// page returns to, showing that section's own "saved" notice. A list item's id (`item`) is the
// address of the call, not a field of the body.
type Api = ReturnType<typeof apiFor>
type Handler = {
  schema: (typeof f)[keyof typeof f]
  fields: string[]
  section: string
  run: (api: Api, v: any, item?: number) => Promise<unknown>
}

/** A form whose parsed values are the body of its one call. */
const bodyForm = (
  schema: Handler['schema'],
  fields: string[],
  section: string,
  endpoint: Endpoint,
): Handler => ({ schema, fields, section, run: (api, v) => api.call(endpoint, { body: v }) })

/** A form of a list (educations, portfolio…): it adds an item, or edits the one it names. */
const listForm = (
  schema: Handler['schema'],
  fields: string[],
  section: string,
  add: Endpoint,
  update: Endpoint,
): Handler => ({
  schema,
  fields,
  section,
  run: (api, v, item) =>
    item ? api.call(update, { params: { id: item }, body: v }) : api.call(add, { body: v }),
})

/** The Remove button of a list's item. */
const removeForm = (section: string, remove: Endpoint): Handler => ({
  schema: f.remove,
  fields: [],
  section,
  run: (api, v) => api.call(remove, { params: { id: v.id } }),
})

const handlers: Record<string, Handler> = {
  titleOverview: bodyForm(f.titleOverview, ['title', 'overview'], 'headline', pc.freelancerTitleOverview),
  description: bodyForm(f.description, ['description'], 'about', pc.freelancerDescription),
  rates: bodyForm(
    f.rates,
    ['amountMinor', 'availability', 'experienceLevel', 'yearsOfExperience', 'currency'],
    'rates',
    pc.freelancerDetails,
  ),
  personal: bodyForm(f.personal, ['country', 'city', 'gender'], 'personal', pc.freelancerDetails),
  categorization: bodyForm(
    f.categorization,
    ['categoryId', 'subcategoryIds', 'skillIds'],
    'categories',
    pc.freelancerCategorization,
  ),
  // One form for a language: a new one is added, a listed one gets the new level.
  language: {
    schema: f.language,
    fields: ['code', 'level'],
    section: 'languages',
    run: async (api, v) =>
      (await api.call(pc.freelancerMine)).languages.some((l) => l.code === v.code)
        ? api.call(pc.languageUpdate, { params: { code: v.code }, body: { level: v.level } })
        : api.call(pc.languageAdd, { body: v }),
  },
  languageDelete: {
    schema: f.languageDelete,
    fields: [],
    section: 'languages',
    run: (api, v) => api.call(pc.languageDelete, { params: { code: v.code } }),
  },
  education: listForm(
    f.education,
    ['school', 'degree', 'fieldOfStudy', 'startYear', 'endYear', 'description'],
    'education',
    pc.educationAdd,
    pc.educationUpdate,
  ),
  educationDelete: removeForm('education', pc.educationDelete),
  employment: listForm(
    f.employment,
    ['company', 'role', 'country', 'startMonth', 'endMonth', 'description'],
    'experience',
    pc.employmentAdd,
    pc.employmentUpdate,
  ),
  employmentDelete: removeForm('experience', pc.employmentDelete),
  certification: listForm(
    f.certification,
    ['name', 'issuer', 'issuedMonth', 'credentialUrl'],
    'certifications',
    pc.certificationAdd,
    pc.certificationUpdate,
  ),
  certificationDelete: removeForm('certifications', pc.certificationDelete),
  portfolio: listForm(
    f.portfolio,
    ['title', 'description', 'projectUrl', 'completedMonth'],
    'portfolio',
    pc.portfolioAdd,
    pc.portfolioUpdate,
  ),
  portfolioDelete: removeForm('portfolio', pc.portfolioDelete),
  rateSheetDelete: {
    schema: f.confirm,
    fields: [],
    section: 'documents',
    run: (api) => api.call(pc.rateSheetDelete),
  },
  clientBasics: bodyForm(f.clientBasics, ['country', 'city', 'industryId'], 'basics', pc.clientBasics),
  companyBasics: bodyForm(
    f.companyBasics,
    ['country', 'city', 'industryId', 'website', 'companySize', 'foundedYear'],
    'basics',
    pc.companyBasics,
  ),
  clientAbout: bodyForm(f.about, ['who', 'what', 'description'], 'about', pc.clientAbout),
  companyAbout: bodyForm(f.about, ['who', 'what', 'description'], 'about', pc.companyAbout),
  clientCategorization: bodyForm(
    f.clientCategorization,
    ['categoryId', 'subcategoryIds'],
    'categories',
    pc.clientCategorization,
  ),
}

// Each upload: the API path it streams to (null when this account has no such upload) and its section.
const uploads: Record<
  string,
  { path: (kind: Kind, item?: string | null) => string | null; section: string }
> = {
  image: {
    path: (kind) =>
      kind === 'freelancer'
        ? 'freelancers/profile/image'
        : kind === 'company'
          ? 'companies/profile/image'
          : kind === 'individual'
            ? 'clients/profile/image'
            : null,
    section: 'image',
  },
  portfolioImage: {
    path: (kind, item) =>
      kind === 'freelancer' && item && /^\d+$/.test(item)
        ? `freelancers/profile/portfolios/${item}/image`
        : null,
    section: 'portfolio',
  },
  portfolioFile: {
    path: (kind, item) =>
      kind === 'freelancer' && item && /^\d+$/.test(item)
        ? `freelancers/profile/portfolios/${item}/file`
        : null,
    section: 'portfolio',
  },
  rateSheet: {
    path: (kind) => (kind === 'freelancer' ? 'freelancers/profile/rate-sheet' : null),
    section: 'documents',
  },
}

/** Where a saved section returns: its card, with its notice (and the list item still open, if one was). */
const savedAt = (section: string, edit?: string) =>
  `/profile?saved=${section}${edit ? `&edit=${edit}` : ''}#${section}`

/** Streams an upload on to the API; the multipart body is never read here. */
export async function saveUpload(
  context: Readonly<RouterContextProvider>,
  request: Request,
  kind: Kind,
  upload: string,
  item: string | null,
) {
  const i18n = getInstance(context)
  const formId = item ? `${upload}-${item}` : upload
  const known = Object.hasOwn(uploads, upload) ? uploads[upload] : null
  const target = known?.path(kind, item)
  if (!target)
    return data(
      {
        formId,
        upload: {
          title: i18n.t('profile:upload.missing.title'),
          message: i18n.t('profile:upload.missing.message'),
        },
      } satisfies ActionResult,
      { status: 400 },
    )
  const outcome = await forwardUpload(context, target, request)
  // A portfolio item's files are uploaded while it is open: it stays open for the next one.
  if (outcome.ok)
    return successOperation(savedAt(known!.section, item ? `${known!.section}-${item}` : undefined), i18n.t)
  const code = uploadCodeOf(outcome.code)
  const tp = i18n.getFixedT(null, 'profile') as unknown as (
    key: string,
    options?: Record<string, unknown>,
  ) => string
  return data(
    {
      formId,
      upload: code === 'other' ? outcome.problem : uploadProblemText(tp, code),
    } satisfies ActionResult,
    { status: 400 },
  )
}

/** Parses one section's form with its schema, makes its one API call, and answers with that section's errors or its notice. */
export async function saveSection(context: Readonly<RouterContextProvider>, request: Request) {
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  const formId = String(formData.get('formId') ?? intent).slice(0, 60)
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : null
  if (!handler)
    return data(
      { formId, result: { status: 'error', error: { '': ['errors.unknownForm'] } } } satisfies ActionResult,
      { status: 400 },
    )
  const submission = parseWithZod(formData, { schema: handler.schema })
  if (submission.status !== 'success')
    return data({ formId, result: submission.reply() } satisfies ActionResult, { status: 400 })
  try {
    await handler.run(apiFor(context), submission.value, itemIdOf(formData))
  } catch (error) {
    const reply = replyWithApiError(submission, error, handler.fields)
    return data({ formId, result: reply.data } as ActionResult, reply.init ?? undefined)
  }
  return successOperation(savedAt(handler.section), getInstance(context).t)
}
