import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/use-translation'
import { Link, data } from 'react-router'
import type { Route } from './+types/index'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { successOperation } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { Avatar } from '~/components/ui/avatar'
import { formatMoney } from '~/lib/format'
import { catalogueContract } from '../../../server/modules/catalogue/contract'
import { profilesContract as pc, type OwnClient, type OwnFreelancer } from '../../../server/modules/profiles/contract'
import { Role } from '../../../server/modules/identity/permissions'
import { amountText, availabilities, companySizes, currencies, experienceLevels, genders, languageLevels, limits, parseAmount } from '../../../server/modules/profiles/rules'
import { profileForms as f } from './forms'
import { Checkboxes, Input, SectionForm, Select, TextArea, UploadForm, uploadCodeOf, uploadProblemText, type ActionResult } from './fields'
import { forwardUpload } from './upload.server'
import stylesheet from './profile.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

type Kind = 'freelancer' | 'individual' | 'company' | 'none'
const kindOf = (roles: number[]): Kind => (roles.includes(Role.Freelancer) ? 'freelancer' : roles.includes(Role.Company) ? 'company' : roles.includes(Role.Client) ? 'individual' : 'none')

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requirePermission(context, url, 'profile.view')
  const kind = kindOf(user.roles)
  const api = apiFor(context)
  const title = getInstance(context).t('profile:page.title')
  if (kind === 'none') return { kind, title, freelancer: null, client: null, tree: [], countries: [], languages: [], industries: [] }
  const [freelancer, client, tree, countries, languages, industries] = await Promise.all([
    kind === 'freelancer' ? api.call(pc.freelancerMine) : null,
    kind === 'company' ? api.call(pc.companyMine) : kind === 'individual' ? api.call(pc.clientMine) : null,
    api.call(catalogueContract.allCategories),
    api.call(catalogueContract.countries),
    kind === 'freelancer' ? api.call(catalogueContract.languages) : { data: [] },
    kind === 'freelancer' ? { data: [] } : api.call(catalogueContract.industries),
  ])
  return { kind, title, freelancer, client, tree: tree.data, countries: countries.data, languages: languages.data, industries: industries.data }
}

type Api = ReturnType<typeof apiFor>
type Handler = { schema: (typeof f)[keyof typeof f]; fields: string[]; anchor: string; run: (api: Api, v: any) => Promise<unknown> }
const none = (v: string | undefined) => v ?? null

// What each form does: its schema, the API call it makes, and where the page returns to.
const handlers: Record<string, Handler> = {
  titleOverview: { schema: f.titleOverview, fields: ['title', 'overview'], anchor: 'title', run: (api, v) => api.call(pc.freelancerTitleOverview, { body: v }) },
  description: { schema: f.description, fields: ['description'], anchor: 'description', run: (api, v) => api.call(pc.freelancerDescription, { body: v }) },
  experienceLevel: { schema: f.experienceLevel, fields: ['experienceLevel'], anchor: 'details', run: (api, v) => api.call(pc.freelancerExperienceLevel, { body: v }) },
  yearsOfExperience: { schema: f.yearsOfExperience, fields: ['yearsOfExperience'], anchor: 'details', run: (api, v) => api.call(pc.freelancerYears, { body: v }) },
  country: { schema: f.country, fields: ['country', 'city'], anchor: 'details', run: (api, v) => api.call(pc.freelancerCountry, { body: { country: v.country, city: none(v.city) } }) },
  availability: { schema: f.availability, fields: ['availability'], anchor: 'details', run: (api, v) => api.call(pc.freelancerAvailability, { body: v }) },
  hourlyRate: { schema: f.hourlyRate, fields: ['amountMinor', 'currency'], anchor: 'details', run: (api, v) => api.call(pc.freelancerHourlyRate, { body: { amountMinor: parseAmount(v.amount)!, currency: v.currency } }) },
  gender: { schema: f.gender, fields: ['gender'], anchor: 'details', run: (api, v) => api.call(pc.freelancerGender, { body: v }) },
  categorization: { schema: f.categorization, fields: ['categoryId', 'subcategoryIds', 'skillIds'], anchor: 'categorization', run: (api, v) => api.call(pc.freelancerCategorization, { body: v }) },
  languageAdd: { schema: f.languageAdd, fields: ['code', 'level'], anchor: 'languages', run: (api, v) => api.call(pc.languageAdd, { body: v }) },
  languageUpdate: { schema: f.languageUpdate, fields: ['level'], anchor: 'languages', run: (api, v) => api.call(pc.languageUpdate, { params: { code: v.code }, body: { level: v.level } }) },
  languageDelete: { schema: f.languageDelete, fields: [], anchor: 'languages', run: (api, v) => api.call(pc.languageDelete, { params: { code: v.code } }) },
  education: {
    schema: f.education, fields: ['school', 'degree', 'fieldOfStudy', 'startYear', 'endYear', 'description'], anchor: 'educations',
    run: (api, { id, ...v }) => (id ? api.call(pc.educationUpdate, { params: { id }, body: { ...v, startYear: v.startYear ?? null, endYear: v.endYear ?? null } }) : api.call(pc.educationAdd, { body: v })),
  },
  educationDelete: { schema: f.remove, fields: [], anchor: 'educations', run: (api, v) => api.call(pc.educationDelete, { params: v }) },
  employment: {
    schema: f.employment, fields: ['company', 'role', 'country', 'startMonth', 'endMonth', 'description'], anchor: 'employment',
    run: (api, { id, ...v }) => (id ? api.call(pc.employmentUpdate, { params: { id }, body: { ...v, country: none(v.country), endMonth: none(v.endMonth) } }) : api.call(pc.employmentAdd, { body: v })),
  },
  employmentDelete: { schema: f.remove, fields: [], anchor: 'employment', run: (api, v) => api.call(pc.employmentDelete, { params: v }) },
  certification: {
    schema: f.certification, fields: ['name', 'issuer', 'issuedMonth', 'credentialUrl'], anchor: 'certifications',
    run: (api, { id, ...v }) => (id ? api.call(pc.certificationUpdate, { params: { id }, body: { ...v, issuedMonth: none(v.issuedMonth), credentialUrl: none(v.credentialUrl) } }) : api.call(pc.certificationAdd, { body: v })),
  },
  certificationDelete: { schema: f.remove, fields: [], anchor: 'certifications', run: (api, v) => api.call(pc.certificationDelete, { params: v }) },
  portfolio: {
    schema: f.portfolio, fields: ['title', 'description', 'projectUrl', 'completedMonth'], anchor: 'portfolios',
    run: (api, { id, ...v }) => (id ? api.call(pc.portfolioUpdate, { params: { id }, body: { ...v, projectUrl: none(v.projectUrl), completedMonth: none(v.completedMonth) } }) : api.call(pc.portfolioAdd, { body: v })),
  },
  portfolioDelete: { schema: f.remove, fields: [], anchor: 'portfolios', run: (api, v) => api.call(pc.portfolioDelete, { params: v }) },
  rateSheetDelete: { schema: f.confirm, fields: [], anchor: 'rate-sheet', run: (api) => api.call(pc.rateSheetDelete) },
  clientBasics: { schema: f.clientBasics, fields: ['country', 'city', 'industryId'], anchor: 'basics', run: (api, v) => api.call(pc.clientBasics, { body: { country: v.country, city: none(v.city), industryId: v.industryId ?? null } }) },
  clientWho: { schema: f.clientText, fields: ['text'], anchor: 'who', run: (api, v) => api.call(pc.clientWho, { body: v }) },
  clientWhat: { schema: f.clientText, fields: ['text'], anchor: 'what', run: (api, v) => api.call(pc.clientWhat, { body: v }) },
  clientDescription: { schema: f.description, fields: ['description'], anchor: 'description', run: (api, v) => api.call(pc.clientDescription, { body: v }) },
  clientCategorization: { schema: f.clientCategorization, fields: ['categoryId', 'subcategoryIds'], anchor: 'categorization', run: (api, v) => api.call(pc.clientCategorization, { body: v }) },
  companyBasics: {
    schema: f.companyBasics, fields: ['country', 'city', 'industryId', 'website', 'companySize', 'foundedYear'], anchor: 'basics',
    run: (api, v) => api.call(pc.companyBasics, { body: { country: v.country, city: none(v.city), industryId: v.industryId ?? null, website: none(v.website), companySize: v.companySize ?? null, foundedYear: v.foundedYear ?? null } }),
  },
  companyWho: { schema: f.clientText, fields: ['text'], anchor: 'who', run: (api, v) => api.call(pc.companyWho, { body: v }) },
  companyWhat: { schema: f.clientText, fields: ['text'], anchor: 'what', run: (api, v) => api.call(pc.companyWhat, { body: v }) },
  companyDescription: { schema: f.description, fields: ['description'], anchor: 'description', run: (api, v) => api.call(pc.companyDescription, { body: v }) },
}

// Each upload: the API path it streams to (null when this account has no such upload) and the section it returns to.
const uploadPaths: Record<string, { path: (kind: Kind, item?: string | null) => string | null; anchor: string }> = {
  image: { path: (kind) => (kind === 'freelancer' ? 'freelancers/profile/image' : kind === 'company' ? 'companies/profile/image' : kind === 'individual' ? 'clients/profile/image' : null), anchor: 'image' },
  portfolioImage: { path: (kind, item) => (kind === 'freelancer' && item && /^\d+$/.test(item) ? `freelancers/profile/portfolios/${item}/image` : null), anchor: 'portfolios' },
  portfolioFile: { path: (kind, item) => (kind === 'freelancer' && item && /^\d+$/.test(item) ? `freelancers/profile/portfolios/${item}/file` : null), anchor: 'portfolios' },
  rateSheet: { path: (kind) => (kind === 'freelancer' ? 'freelancers/profile/rate-sheet' : null), anchor: 'rate-sheet' },
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requirePermission(context, url, 'profile.view')
  const kind = kindOf(user.roles)
  const i18n = getInstance(context)
  // Uploads name their target in the URL, so the multipart body can stream on to the API unread.
  const upload = url.searchParams.get('upload')
  if (upload) {
    const item = url.searchParams.get('item')
    const formId = item ? `${upload}-${item}` : upload
    const known = Object.hasOwn(uploadPaths, upload) ? uploadPaths[upload] : null
    const target = known?.path(kind, item)
    if (!target) return data({ formId, upload: { title: i18n.t('profile:upload.missing.title'), message: i18n.t('profile:upload.missing.message') } } satisfies ActionResult, { status: 400 })
    const outcome = await forwardUpload(context, target, request)
    if (outcome.ok) return successOperation(`/profile#${known!.anchor}`, i18n.t)
    const code = uploadCodeOf(outcome.problem.title, outcome.problem.message)
    const tp = i18n.getFixedT(null, 'profile') as unknown as (key: string, options?: Record<string, unknown>) => string
    return data({ formId, upload: code === 'other' ? outcome.problem : uploadProblemText(tp, code) } satisfies ActionResult, { status: 400 })
  }
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  const formId = String(formData.get('formId') ?? intent).slice(0, 60)
  const handler = Object.hasOwn(handlers, intent) ? handlers[intent] : null
  if (!handler) return data({ formId, result: { status: 'error', error: { '': ['errors.unknownForm'] } } } satisfies ActionResult, { status: 400 })
  const submission = parseWithZod(formData, { schema: handler.schema })
  if (submission.status !== 'success') return data({ formId, result: submission.reply() } satisfies ActionResult, { status: 400 })
  try {
    await handler.run(apiFor(context), submission.value)
  } catch (error) {
    const reply = replyWithApiError(submission, error, handler.fields)
    return data({ formId, result: reply.data } as ActionResult, reply.init ?? undefined)
  }
  return successOperation(`/profile#${handler.anchor}`, i18n.t)
}

export default function MyProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const last = (actionData ?? null) as ActionResult | null
  const { kind } = loaderData
  if (kind === 'none') {
    return (
      <main id="main" className="container page">
        <h1>{t('page.title')}</h1>
        <p>{t('page.noProfile')}</p>
      </main>
    )
  }
  const person = (loaderData.freelancer ?? loaderData.client)!
  const completeness = person.completeness
  const publicHref = kind === 'freelancer' ? `/profiles/freelancers/${person.userId}` : kind === 'company' ? `/profiles/companies/${person.userId}` : `/profiles/clients/${person.userId}`
  return (
    <main id="main" className="container page profile-page">
      <header className="profile-head">
        <Avatar src={person.imageDisplayable && person.imageUrl ? `/api/v1/${person.imageUrl}` : null} alt="" size={96} className="profile-avatar" />
        <div>
          <h1>{t('page.title')}</h1>
          <p className="lead">{person.name}</p>
          <p>
            <Link to={publicHref}>{t('page.viewPublic')}</Link>
          </p>
        </div>
        <section className="completeness" aria-labelledby="completeness-title">
          <h2 id="completeness-title">{t('completeness.title')}</h2>
          <meter id="completeness-meter" min={0} max={100} low={50} high={99} optimum={100} value={completeness.percent} aria-labelledby="completeness-title" />
          <p data-testid="completeness">{t('completeness.percent', { percent: completeness.percent })}</p>
          {completeness.missing.length ? (
            <details>
              <summary>{t('completeness.missing', { count: completeness.missing.length })}</summary>
              <ul>
                {completeness.missing.map((m) => (
                  <li key={m}>{t(`sections.${m}`)}</li>
                ))}
              </ul>
            </details>
          ) : null}
        </section>
      </header>

      <Section id="image" title={t('sections.image')}>
        {person.imageUrl && !person.imageDisplayable ? <p className="field-hint">{t('image.notDisplayable')}</p> : null}
        <UploadForm id="image" action="/profile?upload=image" kind="image" accept=".png,.jpg,.jpeg,.gif,.tiff,.bpg" label={t('image.label')} submit={t('image.submit')} lastResult={last} />
      </Section>

      {kind === 'freelancer' ? <FreelancerEditor p={loaderData.freelancer!} data={loaderData} last={last} /> : <ClientEditor p={loaderData.client!} kind={kind} data={loaderData} last={last} />}
    </main>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} className="card profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  )
}

type LoaderData = Route.ComponentProps['loaderData']

function useOptions(data: LoaderData) {
  const { t } = useTranslation('profile')
  return {
    countries: data.countries.map((c) => ({ value: c.code, label: c.name })),
    languages: data.languages.map((l) => ({ value: l.code, label: l.name })),
    industries: data.industries.map((i) => ({ value: String(i.id), label: i.name })),
    categories: data.tree.map((c) => ({ value: String(c.id), label: c.name })),
    levels: experienceLevels.map((v) => ({ value: v, label: t(`experience.${v}`) })),
    availability: availabilities.map((v) => ({ value: v, label: t(`availability.${v}`) })),
    genders: genders.map((v) => ({ value: v, label: t(`gender.${v}`) })),
    languageLevels: languageLevels.map((v) => ({ value: v, label: t(`languageLevel.${v}`) })),
    currencies: currencies.map((v) => ({ value: v, label: v })),
    sizes: companySizes.map((v) => ({ value: v, label: t(`companySize.${v}`) })),
  }
}

function DeleteButton({ intent, id, label, last }: { intent: string; id: number | string; label: string; last: ActionResult | null }) {
  const isCode = typeof id === 'string'
  return (
    <SectionForm id={`${intent}-${id}`} intent={intent} schema={isCode ? f.languageDelete : f.remove} lastResult={last} submit={label} danger className="inline-form">
      {() => <input type="hidden" name={isCode ? 'code' : 'id'} value={id} />}
    </SectionForm>
  )
}

function FreelancerEditor({ p, data, last }: { p: OwnFreelancer; data: LoaderData; last: ActionResult | null }) {
  const { t, i18n } = useTranslation('profile')
  const o = useOptions(data)
  const save = t('actions.save')
  return (
    <>
      <Section id="title" title={t('sections.titleOverview')}>
        <SectionForm id="titleOverview" intent="titleOverview" schema={f.titleOverview} lastResult={last} defaultValue={{ title: p.title, overview: p.overview }} submit={save}>
          {(x) => (
            <>
              <Input field={x.title} label={t('fields.title')} maxLength={limits.title} />
              <TextArea field={x.overview} label={t('fields.overview')} maxLength={limits.overview} rows={4} />
            </>
          )}
        </SectionForm>
      </Section>

      <Section id="description" title={t('sections.description')}>
        <SectionForm id="description" intent="description" schema={f.description} lastResult={last} defaultValue={{ description: p.description }} submit={save}>
          {(x) => <TextArea field={x.description} label={t('fields.description')} maxLength={limits.description} rows={8} />}
        </SectionForm>
      </Section>

      <Section id="details" title={t('sections.details')}>
        <div className="details-grid">
          <SectionForm id="experienceLevel" intent="experienceLevel" schema={f.experienceLevel} lastResult={last} defaultValue={{ experienceLevel: p.experienceLevel ?? '' }} submit={save}>
            {(x) => <Select field={x.experienceLevel} label={t('fields.experienceLevel')} options={o.levels} placeholder={t('fields.choose')} />}
          </SectionForm>
          <SectionForm id="yearsOfExperience" intent="yearsOfExperience" schema={f.yearsOfExperience} lastResult={last} defaultValue={{ yearsOfExperience: p.yearsOfExperience?.toString() ?? '' }} submit={save}>
            {(x) => <Input field={x.yearsOfExperience} label={t('fields.yearsOfExperience')} type="number" min={0} max={limits.years} />}
          </SectionForm>
          <SectionForm id="country" intent="country" schema={f.country} lastResult={last} defaultValue={{ country: p.country ?? '', city: p.city ?? '' }} submit={save}>
            {(x) => (
              <>
                <Select field={x.country} label={t('fields.country')} options={o.countries} placeholder={t('fields.choose')} />
                <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
              </>
            )}
          </SectionForm>
          <SectionForm id="availability" intent="availability" schema={f.availability} lastResult={last} defaultValue={{ availability: p.availability ?? '' }} submit={save}>
            {(x) => <Select field={x.availability} label={t('fields.availability')} options={o.availability} placeholder={t('fields.choose')} />}
          </SectionForm>
          <SectionForm id="hourlyRate" intent="hourlyRate" schema={f.hourlyRate} lastResult={last} defaultValue={{ amount: p.hourlyRate ? amountText(p.hourlyRate.amountMinor) : '', currency: p.hourlyRate?.currency ?? 'EUR' }} submit={save}>
            {(x) => (
              <div className="field-row">
                <Input field={x.amount} label={t('fields.hourlyRate')} hint={p.hourlyRate ? formatMoney(p.hourlyRate.amountMinor, p.hourlyRate.currency, i18n.language) : t('fields.hourlyRateHint')} />
                <Select field={x.currency} label={t('fields.currency')} options={o.currencies} />
              </div>
            )}
          </SectionForm>
          <SectionForm id="gender" intent="gender" schema={f.gender} lastResult={last} defaultValue={{ gender: p.gender ?? '' }} submit={save}>
            {(x) => <Select field={x.gender} label={t('fields.gender')} options={o.genders} placeholder={t('fields.choose')} />}
          </SectionForm>
        </div>
        <p className="field-hint">{t('fields.genderHint')}</p>
      </Section>

      <Section id="rate-sheet" title={t('sections.rateSheet')}>
        <p className="muted">{t('files.rateSheetLead')}</p>
        {p.rateSheet ? (
          <div className="portfolio-files">
            <a className="file-card" href={`/api/v1/${p.rateSheet.url}`}>{t('files.download', { name: p.rateSheet.name })}</a>
            <SectionForm id="rateSheetDelete" intent="rateSheetDelete" schema={f.confirm} lastResult={last} submit={t('actions.remove')} danger className="inline-form">
              {() => null}
            </SectionForm>
          </div>
        ) : (
          <p className="empty-state">{t('files.rateSheetNone')}</p>
        )}
        <UploadForm id="rateSheet" action="/profile?upload=rateSheet" kind="spreadsheet" accept=".xlsx,.csv" label={t('files.rateSheet')} submit={t('files.upload')} lastResult={last} />
      </Section>

      <Section id="languages" title={t('sections.languages')}>
        <ul className="item-list">
          {p.languages.map((l) => (
            <li key={l.code} className="item">
              <strong>{l.name}</strong>
              <SectionForm id={`languageUpdate-${l.code}`} intent="languageUpdate" schema={f.languageUpdate} lastResult={last} defaultValue={{ code: l.code, level: l.level }} submit={save} className="inline-form">
                {(x) => (
                  <>
                    <input type="hidden" name="code" value={l.code} />
                    <Select field={x.level} label={t('fields.level')} options={o.languageLevels} />
                  </>
                )}
              </SectionForm>
              <DeleteButton intent="languageDelete" id={l.code} label={t('actions.remove')} last={last} />
            </li>
          ))}
        </ul>
        <SectionForm id="languageAdd" intent="languageAdd" schema={f.languageAdd} lastResult={last} submit={t('actions.add')} className="form-stack add-form">
          {(x) => (
            <div className="field-row">
              <Select field={x.code} label={t('fields.language')} options={o.languages} placeholder={t('fields.choose')} />
              <Select field={x.level} label={t('fields.level')} options={o.languageLevels} placeholder={t('fields.choose')} />
            </div>
          )}
        </SectionForm>
      </Section>

      <Section id="categorization" title={t('sections.categorization')}>
        <Categorization data={data} last={last} intent="categorization" categoryId={p.category?.id ?? null} subcategoryIds={p.subcategories.map((s) => s.id)} skillIds={p.skills.map((s) => s.id)} />
      </Section>

      <ListSection id="educations" title={t('sections.educations')} items={p.educations} last={last} intent="education" schema={f.education}
        describe={(e) => `${e.degree}, ${e.school}${e.startYear || e.endYear ? ` (${e.startYear ?? ''}–${e.endYear ?? ''})` : ''}`}
        defaults={(e) => ({ id: String(e.id), school: e.school, degree: e.degree, fieldOfStudy: e.fieldOfStudy, startYear: e.startYear?.toString() ?? '', endYear: e.endYear?.toString() ?? '', description: e.description })}
        fields={(x) => (
          <>
            <div className="field-row">
              <Input field={x.school} label={t('fields.school')} maxLength={limits.name} />
              <Input field={x.degree} label={t('fields.degree')} maxLength={limits.name} />
              <Input field={x.fieldOfStudy} label={t('fields.fieldOfStudy')} maxLength={limits.name} />
            </div>
            <div className="field-row">
              <Input field={x.startYear} label={t('fields.startYear')} type="number" min={1950} max={2100} />
              <Input field={x.endYear} label={t('fields.endYear')} type="number" min={1950} max={2100} />
            </div>
            <TextArea field={x.description} label={t('fields.itemDescription')} maxLength={limits.longText} rows={3} />
          </>
        )}
      />

      <ListSection id="employment" title={t('sections.employmentHistory')} items={p.employmentHistory} last={last} intent="employment" schema={f.employment}
        describe={(e) => `${e.role}, ${e.company} (${e.startMonth}–${e.endMonth ?? t('fields.present')})`}
        defaults={(e) => ({ id: String(e.id), company: e.company, role: e.role, country: e.country ?? '', startMonth: e.startMonth, endMonth: e.endMonth ?? '', description: e.description })}
        fields={(x) => (
          <>
            <div className="field-row">
              <Input field={x.company} label={t('fields.company')} maxLength={limits.name} />
              <Input field={x.role} label={t('fields.role')} maxLength={limits.name} />
              <Select field={x.country} label={t('fields.country')} options={o.countries} placeholder={t('fields.none')} />
            </div>
            <div className="field-row">
              <Input field={x.startMonth} label={t('fields.startMonth')} type="month" hint={t('fields.monthHint')} />
              <Input field={x.endMonth} label={t('fields.endMonth')} type="month" hint={t('fields.endMonthHint')} />
            </div>
            <TextArea field={x.description} label={t('fields.itemDescription')} maxLength={limits.longText} rows={3} />
          </>
        )}
      />

      <ListSection id="certifications" title={t('sections.certifications')} items={p.certifications} last={last} intent="certification" schema={f.certification}
        describe={(c) => `${c.name} — ${c.issuer}${c.issuedMonth ? ` (${c.issuedMonth})` : ''}`}
        defaults={(c) => ({ id: String(c.id), name: c.name, issuer: c.issuer, issuedMonth: c.issuedMonth ?? '', credentialUrl: c.credentialUrl ?? '' })}
        fields={(x) => (
          <div className="field-row">
            <Input field={x.name} label={t('fields.certificationName')} maxLength={limits.name} />
            <Input field={x.issuer} label={t('fields.issuer')} maxLength={limits.name} />
            <Input field={x.issuedMonth} label={t('fields.issuedMonth')} type="month" hint={t('fields.monthHint')} />
            <Input field={x.credentialUrl} label={t('fields.credentialUrl')} type="url" maxLength={limits.url} />
          </div>
        )}
      />

      <ListSection id="portfolios" title={t('sections.portfolios')} items={p.portfolios} last={last} intent="portfolio" schema={f.portfolio}
        describe={(item) => item.title}
        extra={(item) => (
          <div className="portfolio-files">
            {item.image ? (
              item.image.displayable ? (
                <img src={`/api/v1/${item.image.url}`} alt={item.title} className="portfolio-image" width={240} />
              ) : (
                <a className="file-card" href={`/api/v1/${item.image.url}`} download>{t('files.download', { name: item.image.name })}</a>
              )
            ) : null}
            {item.document ? <a className="file-card" href={`/api/v1/${item.document.url}`}>{t('files.download', { name: item.document.name })}</a> : null}
            <UploadForm id={`portfolioImage-${item.id}`} action={`/profile?upload=portfolioImage&item=${item.id}`} kind="image" accept=".png,.jpg,.jpeg,.gif,.tiff,.bpg" label={t('files.image')} submit={t('files.upload')} lastResult={last} />
            <UploadForm id={`portfolioFile-${item.id}`} action={`/profile?upload=portfolioFile&item=${item.id}`} kind="document" accept=".pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip,.png,.jpg,.jpeg,.gif,.tiff,.bpg" label={t('files.document')} submit={t('files.upload')} lastResult={last} />
          </div>
        )}
        defaults={(item) => ({ id: String(item.id), title: item.title, description: item.description, projectUrl: item.projectUrl ?? '', completedMonth: item.completedMonth ?? '' })}
        fields={(x) => (
          <>
            <div className="field-row">
              <Input field={x.title} label={t('fields.portfolioTitle')} maxLength={limits.name} />
              <Input field={x.projectUrl} label={t('fields.projectUrl')} type="url" maxLength={limits.url} />
              <Input field={x.completedMonth} label={t('fields.completedMonth')} type="month" hint={t('fields.monthHint')} />
            </div>
            <TextArea field={x.description} label={t('fields.itemDescription')} maxLength={limits.longText} rows={3} />
          </>
        )}
      />
    </>
  )
}

function ListSection<I extends { id: number }>({ id, title, items, last, intent, schema, describe, defaults, fields, extra }: {
  id: string
  title: string
  items: I[]
  last: ActionResult | null
  intent: string
  schema: (typeof f)[keyof typeof f]
  describe: (item: I) => string
  defaults: (item: I) => Record<string, string>
  fields: (x: Record<string, any>) => React.ReactNode
  extra?: (item: I) => React.ReactNode
}) {
  const { t } = useTranslation('profile')
  return (
    <Section id={id} title={title}>
      {items.length ? (
        <ul className="item-list">
          {items.map((item) => (
            <li key={item.id} className="item">
              <p className="item-title">{describe(item)}</p>
              {extra?.(item)}
              <details open={last?.formId === `${intent}-${item.id}`}>
                <summary>{t('actions.edit')}</summary>
                <SectionForm id={`${intent}-${item.id}`} intent={intent} schema={schema} lastResult={last} defaultValue={defaults(item)} submit={t('actions.save')}>
                  {(x) => (
                    <>
                      <input type="hidden" name="id" value={item.id} />
                      {fields(x)}
                    </>
                  )}
                </SectionForm>
              </details>
              <DeleteButton intent={`${intent}Delete`} id={item.id} label={t('actions.remove')} last={last} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('page.empty')}</p>
      )}
      <h3>{t('actions.addNew')}</h3>
      <SectionForm id={`${intent}-new`} intent={intent} schema={schema} lastResult={last} submit={t('actions.add')}>
        {(x) => fields(x)}
      </SectionForm>
    </Section>
  )
}

function Categorization({ data, last, intent, categoryId, subcategoryIds, skillIds }: { data: LoaderData; last: ActionResult | null; intent: string; categoryId: number | null; subcategoryIds: number[]; skillIds?: number[] }) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const schema = skillIds ? f.categorization : f.clientCategorization
  return (
    <SectionForm id={intent} intent={intent} schema={schema} lastResult={last} defaultValue={{ categoryId: categoryId?.toString() ?? '' }} submit={t('actions.save')}>
      {(x) => (
        <>
          <Select field={x.categoryId} label={t('fields.category')} options={o.categories} placeholder={t('fields.choose')} />
          <p className="field-hint">{t('fields.categorizationHint')}</p>
          {data.tree.map((c) => (
            <details key={c.id} className="category-block" open={c.id === categoryId}>
              <summary>{c.name}</summary>
              <Checkboxes field={x.subcategoryIds} legend={t('fields.subcategories')} options={c.subcategories.map((s) => ({ value: s.id, label: s.name }))} checked={subcategoryIds} />
              {skillIds
                ? c.subcategories.map((s) => (
                    <Checkboxes key={s.id} field={x.skillIds} legend={t('fields.skillsOf', { name: s.name })} options={s.skills.map((k) => ({ value: k.id, label: k.name }))} checked={skillIds} />
                  ))
                : null}
            </details>
          ))}
        </>
      )}
    </SectionForm>
  )
}

function ClientEditor({ p, kind, data, last }: { p: OwnClient; kind: Kind; data: LoaderData; last: ActionResult | null }) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const save = t('actions.save')
  const company = kind === 'company'
  return (
    <>
      <Section id="basics" title={t('sections.basicDetails')}>
        {company ? (
          <SectionForm id="companyBasics" intent="companyBasics" schema={f.companyBasics} lastResult={last} submit={save}
            defaultValue={{ country: p.country ?? '', city: p.city ?? '', industryId: p.industry?.id.toString() ?? '', website: p.website ?? '', companySize: p.companySize ?? '', foundedYear: p.foundedYear?.toString() ?? '' }}>
            {(x) => (
              <>
                <p>
                  {t('fields.companyName')}: <strong>{p.companyName}</strong> <Link to="/profile/account-settings">{t('page.changeInSettings')}</Link>
                </p>
                <div className="field-row">
                  <Select field={x.country} label={t('fields.country')} options={o.countries} placeholder={t('fields.choose')} />
                  <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
                  <Select field={x.industryId} label={t('fields.industry')} options={o.industries} placeholder={t('fields.none')} />
                </div>
                <div className="field-row">
                  <Input field={x.website} label={t('fields.website')} type="url" maxLength={limits.url} />
                  <Select field={x.companySize} label={t('fields.companySize')} options={o.sizes} placeholder={t('fields.none')} />
                  <Input field={x.foundedYear} label={t('fields.foundedYear')} type="number" min={1800} max={2100} />
                </div>
              </>
            )}
          </SectionForm>
        ) : (
          <SectionForm id="clientBasics" intent="clientBasics" schema={f.clientBasics} lastResult={last} submit={save} defaultValue={{ country: p.country ?? '', city: p.city ?? '', industryId: p.industry?.id.toString() ?? '' }}>
            {(x) => (
              <div className="field-row">
                <Select field={x.country} label={t('fields.country')} options={o.countries} placeholder={t('fields.choose')} />
                <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
                <Select field={x.industryId} label={t('fields.industry')} options={o.industries} placeholder={t('fields.none')} />
              </div>
            )}
          </SectionForm>
        )}
      </Section>
      <Section id="who" title={t(company ? 'sections.whoAreWe' : 'sections.whoIAm')}>
        <SectionForm id={company ? 'companyWho' : 'clientWho'} intent={company ? 'companyWho' : 'clientWho'} schema={f.clientText} lastResult={last} defaultValue={{ text: p.who }} submit={save}>
          {(x) => <TextArea field={x.text} label={t(company ? 'sections.whoAreWe' : 'sections.whoIAm')} maxLength={limits.longText} />}
        </SectionForm>
      </Section>
      <Section id="what" title={t(company ? 'sections.whatDoWeDo' : 'sections.whatIDo')}>
        <SectionForm id={company ? 'companyWhat' : 'clientWhat'} intent={company ? 'companyWhat' : 'clientWhat'} schema={f.clientText} lastResult={last} defaultValue={{ text: p.what }} submit={save}>
          {(x) => <TextArea field={x.text} label={t(company ? 'sections.whatDoWeDo' : 'sections.whatIDo')} maxLength={limits.longText} />}
        </SectionForm>
      </Section>
      <Section id="description" title={t('sections.description')}>
        <SectionForm id={company ? 'companyDescription' : 'clientDescription'} intent={company ? 'companyDescription' : 'clientDescription'} schema={f.description} lastResult={last} defaultValue={{ description: p.description }} submit={save}>
          {(x) => <TextArea field={x.description} label={t('fields.description')} maxLength={limits.description} rows={8} />}
        </SectionForm>
      </Section>
      {company ? null : (
        <Section id="categorization" title={t('sections.categorization')}>
          <Categorization data={data} last={last} intent="clientCategorization" categoryId={p.category?.id ?? null} subcategoryIds={p.subcategories.map((s) => s.id)} />
        </Section>
      )}
    </>
  )
}
