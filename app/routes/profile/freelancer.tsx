import { useTranslation } from 'react-i18next'
import { formatMoney } from '~/lib/format'
import type { OwnFreelancer } from '#server/modules/profiles/contract.ts'
import { amountText, limits } from '#server/modules/profiles/rules.ts'
import { profileForms as f } from './forms'
import { Input, SectionForm, Select, TextArea, UploadForm, imageTypes } from './fields'
import { CategoriesSection } from './categories'
import {
  ListSection,
  ProfileSection,
  RemoveButton,
  placeholderUnless,
  useOptions,
  type Catalogue,
  type SectionState,
} from './section'

/** The freelancer's profile, section by section, in the order of the side list. */
export function FreelancerSections({
  p,
  data,
  state,
}: {
  p: OwnFreelancer
  data: Catalogue
  state: SectionState
}) {
  const { t, i18n } = useTranslation('profile')
  const o = useOptions(data)
  const { last } = state
  const save = t('actions.save')
  return (
    <>
      <ProfileSection id="headline" title={t('sections.titleOverview')} state={state}>
        <SectionForm
          id="titleOverview"
          intent="titleOverview"
          action="/profile#headline"
          schema={f.titleOverview}
          lastResult={last}
          defaultValue={{ title: p.title, overview: p.overview }}
          submit={save}
        >
          {(x) => (
            <>
              <Input field={x.title} label={t('fields.title')} maxLength={limits.title} />
              <TextArea
                field={x.overview}
                label={t('fields.overview')}
                maxLength={limits.overview}
                rows={3}
              />
            </>
          )}
        </SectionForm>
      </ProfileSection>

      <ProfileSection id="about" title={t('sections.about')} state={state}>
        <SectionForm
          id="description"
          intent="description"
          action="/profile#about"
          schema={f.description}
          lastResult={last}
          defaultValue={{ description: p.description }}
          submit={save}
        >
          {(x) => (
            <TextArea
              field={x.description}
              label={t('fields.description')}
              maxLength={limits.description}
              rows={8}
            />
          )}
        </SectionForm>
      </ProfileSection>

      <CategoriesSection
        data={data}
        state={state}
        intent="categorization"
        categoryId={p.category?.id ?? null}
        subcategoryIds={p.subcategories.map((s) => s.id)}
        skillIds={p.skills.map((s) => s.id)}
      />

      <ProfileSection id="rates" title={t('sections.rates')} state={state}>
        <SectionForm
          id="rates"
          intent="rates"
          action="/profile#rates"
          schema={f.rates}
          lastResult={last}
          submit={save}
          defaultValue={{
            amountMinor: p.hourlyRate ? amountText(p.hourlyRate.amountMinor) : '',
            currency: p.hourlyRate?.currency ?? 'EUR',
            availability: p.availability ?? '',
            experienceLevel: p.experienceLevel ?? '',
            yearsOfExperience: p.yearsOfExperience?.toString() ?? '',
          }}
        >
          {(x) => (
            <>
              <div className="field-row">
                <Input
                  field={x.amountMinor}
                  label={t('fields.hourlyRate')}
                  hint={
                    p.hourlyRate
                      ? formatMoney(p.hourlyRate.amountMinor, p.hourlyRate.currency, i18n.language)
                      : t('fields.hourlyRateHint')
                  }
                />
                <Select field={x.currency} label={t('fields.currency')} options={o.currencies} />
                <Select
                  field={x.availability}
                  label={t('fields.availability')}
                  options={o.availability}
                  placeholder={placeholderUnless(p.availability, t('fields.choose'))}
                />
              </div>
              <div className="field-row">
                <Select
                  field={x.experienceLevel}
                  label={t('fields.experienceLevel')}
                  options={o.levels}
                  placeholder={placeholderUnless(p.experienceLevel, t('fields.choose'))}
                />
                <Input
                  field={x.yearsOfExperience}
                  label={t('fields.yearsOfExperience')}
                  type="number"
                  min={0}
                  max={limits.years}
                />
              </div>
            </>
          )}
        </SectionForm>
      </ProfileSection>

      <ProfileSection
        id="personal"
        title={t('sections.personal')}
        state={state}
        lead={t('fields.genderHint')}
      >
        <SectionForm
          id="personal"
          intent="personal"
          action="/profile#personal"
          schema={f.personal}
          lastResult={last}
          defaultValue={{ country: p.country ?? '', city: p.city ?? '', gender: p.gender ?? '' }}
          submit={save}
        >
          {(x) => (
            <div className="field-row">
              <Select
                field={x.country}
                label={t('fields.country')}
                options={o.countries}
                placeholder={placeholderUnless(p.country, t('fields.choose'))}
              />
              <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
              <Select
                field={x.gender}
                label={t('fields.gender')}
                options={o.genders}
                placeholder={placeholderUnless(p.gender, t('fields.choose'))}
              />
            </div>
          )}
        </SectionForm>
      </ProfileSection>

      <ProfileSection id="languages" title={t('sections.languages')} state={state}>
        {p.languages.length ? (
          <ul className="file-list">
            {p.languages.map((l) => (
              <li key={l.code}>
                <span>
                  <strong>{l.name}</strong> · {t(`languageLevel.${l.level}`)}
                </span>
                <RemoveButton
                  intent="languageDelete"
                  section="languages"
                  fields={{ code: l.code }}
                  schema={f.languageDelete}
                  label={t('actions.remove')}
                  last={last}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p className="hint">{t('page.empty')}</p>
        )}
        <h3>{t('fields.languageForm')}</h3>
        <SectionForm
          key={p.languages.length}
          id="language"
          intent="language"
          action="/profile#languages"
          schema={f.language}
          lastResult={last}
          submit={save}
        >
          {(x) => (
            <div className="field-row">
              <Select
                field={x.code}
                label={t('fields.language')}
                options={o.languages}
                placeholder={t('fields.choose')}
              />
              <Select
                field={x.level}
                label={t('fields.level')}
                options={o.languageLevels}
                placeholder={t('fields.choose')}
              />
            </div>
          )}
        </SectionForm>
      </ProfileSection>

      <ListSection
        id="education"
        title={t('sections.educations')}
        items={p.educations}
        state={state}
        intent="education"
        schema={f.education}
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
            <TextArea
              field={x.description}
              label={t('fields.itemDescription')}
              maxLength={limits.longText}
              rows={3}
            />
          </>
        )}
      />

      <ListSection
        id="experience"
        title={t('sections.employmentHistory')}
        items={p.employmentHistory}
        state={state}
        intent="employment"
        schema={f.employment}
        describe={(e) => `${e.role}, ${e.company} (${e.startMonth}–${e.endMonth ?? t('fields.present')})`}
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
            <TextArea
              field={x.description}
              label={t('fields.itemDescription')}
              maxLength={limits.longText}
              rows={3}
            />
          </>
        )}
      />

      <ListSection
        id="certifications"
        title={t('sections.certifications')}
        items={p.certifications}
        state={state}
        intent="certification"
        schema={f.certification}
        describe={(c) => `${c.name} — ${c.issuer}${c.issuedMonth ? ` (${c.issuedMonth})` : ''}`}
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

      <ListSection
        id="portfolio"
        title={t('sections.portfolios')}
        items={p.portfolios}
        state={state}
        intent="portfolio"
        schema={f.portfolio}
        describe={(item) => item.title}
        defaults={(item) => ({
          title: item.title,
          description: item.description,
          projectUrl: item.projectUrl ?? '',
          completedMonth: item.completedMonth ?? '',
        })}
        extra={(item) => (
          <>
            <h3>{t('files.ofItem', { name: item.title })}</h3>
            {item.image ? (
              item.image.displayable ? (
                <img
                  src={`/api/v1/${item.image.url}`}
                  alt={item.title}
                  className="portfolio-image"
                  width={240}
                />
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
                <a href={`/api/v1/${item.document.url}`}>
                  {t('files.download', { name: item.document.name })}
                </a>
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
        )}
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
            <TextArea
              field={x.description}
              label={t('fields.itemDescription')}
              maxLength={limits.longText}
              rows={3}
            />
          </>
        )}
      />

      <ProfileSection
        id="documents"
        title={t('sections.documents')}
        state={state}
        lead={t('files.rateSheetLead')}
      >
        <h3>{t('sections.rateSheet')}</h3>
        {p.rateSheet ? (
          <ul className="file-list">
            <li>
              <a href={`/api/v1/${p.rateSheet.url}`}>{t('files.download', { name: p.rateSheet.name })}</a>
              <RemoveButton
                intent="rateSheetDelete"
                section="documents"
                fields={{}}
                schema={f.confirm}
                label={t('actions.remove')}
                last={last}
              />
            </li>
          </ul>
        ) : (
          <p className="hint">{t('files.rateSheetNone')}</p>
        )}
        <UploadForm
          id="rateSheet"
          action="/profile?upload=rateSheet#documents"
          kind="spreadsheet"
          accept=".xlsx,.csv"
          label={t('files.rateSheet')}
          submit={t('files.upload')}
          lastResult={last}
        />
      </ProfileSection>
    </>
  )
}
