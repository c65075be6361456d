import { useTranslation } from '~/lib/translations'
import { formatMonth, formatMonthRange } from '~/lib/format'
import type { OwnFreelancer } from '#server/modules/profiles/contract.ts'
import { limits } from '#server/modules/profiles/rules.ts'
import {
  Input,
  Select,
  TextArea,
  UploadForm,
  imageTypes,
  type ActionResult,
  type SectionField,
} from './fields'
import { ListSection } from './list-section'
import { useOptions } from './options'
import type { Catalogue, SectionState } from './section'

// The freelancer's list sections (education, employment, certifications, portfolio): one item form
// each, for a new item or the one open for editing (see ListSection).

/** What each of the freelancer's sections and their forms is handed. */
export interface FreelancerPart {
  p: OwnFreelancer
  state: SectionState
  data: Catalogue
}

export function EducationSection({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ListSection
      id="education"
      title={t('sections.educations')}
      items={p.educations}
      state={state}
      intent="education"
      describe={(e) =>
        `${e.degree}, ${e.school}${e.startYear || e.endYear ? ` (${e.startYear ?? ''}–${e.endYear ?? ''})` : ''}`
      }
      defaults={(e) => ({
        school: e.school,
        degree: e.degree,
        fieldOfStudy: e.fieldOfStudy,
        startYear: e.startYear?.toString() ?? '',
        endYear: e.endYear?.toString() ?? '',
        description: e.description,
      })}
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
          <ItemDescription field={x.description} />
        </>
      )}
    />
  )
}

export function ExperienceSection({ p, state, data }: FreelancerPart) {
  const { t, i18n } = useTranslation('profile')
  const o = useOptions(data)
  return (
    <ListSection
      id="experience"
      title={t('sections.employmentHistory')}
      items={p.employmentHistory}
      state={state}
      intent="employment"
      describe={(e) =>
        `${e.role}, ${e.company} (${formatMonthRange(e.startMonth, e.endMonth, i18n.language, t('fields.present'))})`
      }
      defaults={(e) => ({
        company: e.company,
        role: e.role,
        country: e.country ?? '',
        startMonth: e.startMonth,
        endMonth: e.endMonth ?? '',
        description: e.description,
      })}
      fields={(x) => (
        <>
          <div className="field-row">
            <Input field={x.company} label={t('fields.company')} maxLength={limits.name} />
            <Input field={x.role} label={t('fields.role')} maxLength={limits.name} />
            <Select
              field={x.country}
              label={t('fields.country')}
              options={o.countries}
              placeholder={t('fields.none')}
            />
          </div>
          <div className="field-row">
            <Input
              field={x.startMonth}
              label={t('fields.startMonth')}
              type="month"
              hint={t('fields.monthHint')}
            />
            <Input
              field={x.endMonth}
              label={t('fields.endMonth')}
              type="month"
              hint={t('fields.endMonthHint')}
            />
          </div>
          <ItemDescription field={x.description} />
        </>
      )}
    />
  )
}

export function CertificationsSection({ p, state }: FreelancerPart) {
  const { t, i18n } = useTranslation('profile')
  return (
    <ListSection
      id="certifications"
      title={t('sections.certifications')}
      items={p.certifications}
      state={state}
      intent="certification"
      describe={(c) =>
        `${c.name} — ${c.issuer}${c.issuedMonth ? ` (${formatMonth(c.issuedMonth, i18n.language)})` : ''}`
      }
      defaults={(c) => ({
        name: c.name,
        issuer: c.issuer,
        issuedMonth: c.issuedMonth ?? '',
        credentialUrl: c.credentialUrl ?? '',
      })}
      fields={(x) => (
        <div className="field-row">
          <Input field={x.name} label={t('fields.certificationName')} maxLength={limits.name} />
          <Input field={x.issuer} label={t('fields.issuer')} maxLength={limits.name} />
          <Input
            field={x.issuedMonth}
            label={t('fields.issuedMonth')}
            type="month"
            hint={t('fields.monthHint')}
          />
          <Input
            field={x.credentialUrl}
            label={t('fields.credentialUrl')}
            type="url"
            maxLength={limits.url}
          />
        </div>
      )}
    />
  )
}

export function PortfolioSection({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ListSection
      id="portfolio"
      title={t('sections.portfolios')}
      items={p.portfolios}
      state={state}
      intent="portfolio"
      describe={(item) => item.title}
      defaults={(item) => ({
        title: item.title,
        description: item.description,
        projectUrl: item.projectUrl ?? '',
        completedMonth: item.completedMonth ?? '',
      })}
      extra={(item) => <PortfolioFiles item={item} last={state.last} />}
      fields={(x) => (
        <>
          <div className="field-row">
            <Input field={x.title} label={t('fields.portfolioTitle')} maxLength={limits.name} />
            <Input field={x.projectUrl} label={t('fields.projectUrl')} type="url" maxLength={limits.url} />
            <Input
              field={x.completedMonth}
              label={t('fields.completedMonth')}
              type="month"
              hint={t('fields.monthHint')}
            />
          </div>
          <ItemDescription field={x.description} />
        </>
      )}
    />
  )
}

/** What an item of a list says about itself, under its other fields. */
function ItemDescription({ field }: { field: SectionField }) {
  const { t } = useTranslation('profile')
  return <TextArea field={field} label={t('fields.itemDescription')} maxLength={limits.longText} rows={3} />
}

/** The files of the portfolio item open for editing: what it has, and a form to upload each. */
function PortfolioFiles({
  item,
  last,
}: {
  item: OwnFreelancer['portfolios'][number]
  last: ActionResult | null
}) {
  const { t } = useTranslation('profile')
  return (
    <>
      <h3>{t('files.ofItem', { name: item.title })}</h3>
      {item.image ? (
        item.image.displayable ? (
          <img src={`/api/v1/${item.image.url}`} alt={item.title} className="portfolio-image" width={240} />
        ) : (
          <p>
            <a href={`/api/v1/${item.image.url}`} download>
              {t('files.download', { name: item.image.name })}
            </a>
          </p>
        )
      ) : null}
      {item.document ? (
        <p>
          <a href={`/api/v1/${item.document.url}`}>{t('files.download', { name: item.document.name })}</a>
        </p>
      ) : null}
      <UploadForm
        id={`portfolioImage-${item.id}`}
        action={`/profile?upload=portfolioImage&item=${item.id}&edit=portfolio-${item.id}#portfolio`}
        kind="image"
        accept={imageTypes}
        label={t('files.image')}
        submit={t('files.upload')}
        lastResult={last}
      />
      <UploadForm
        id={`portfolioFile-${item.id}`}
        action={`/profile?upload=portfolioFile&item=${item.id}&edit=portfolio-${item.id}#portfolio`}
        kind="document"
        accept=".pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip,.png,.jpg,.jpeg,.gif,.tiff,.bpg"
        label={t('files.document')}
        submit={t('files.upload')}
        lastResult={last}
      />
    </>
  )
}
