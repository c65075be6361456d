import { useTranslation } from '~/lib/translations'
import type { OwnFreelancer } from '#server/modules/profiles/contract.ts'
import { amountText, limits } from '#server/modules/profiles/rules.ts'
import { Input, SectionForm, Select, TextArea, UploadForm } from './fields'
import { CategoriesSection } from './categories'
import {
  CertificationsSection,
  EducationSection,
  ExperienceSection,
  PortfolioSection,
  type FreelancerPart,
} from './freelancer-lists'
import { Facts, Texts, useRate } from './views'
import {
  CancelLink,
  editHref,
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
  const o = useOptions(data)
  const part = { p, state, o }
  return (
    <>
      <TitleSection {...part} />

      <AboutSection {...part} />

      <CategoriesSection
        data={data}
        state={state}
        intent="categorization"
        categoryId={p.category?.id ?? null}
        subcategoryIds={p.subcategories.map((s) => s.id)}
        skillIds={p.skills.map((s) => s.id)}
      />

      <RatesSection {...part} />

      <PersonalSection {...part} />

      <LanguagesSection {...part} />

      <EducationSection {...part} />

      <ExperienceSection {...part} />

      <CertificationsSection {...part} />

      <PortfolioSection {...part} />

      <DocumentsSection {...part} />
    </>
  )
}

function TitleSection({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="headline"
      title={t('sections.titleOverview')}
      state={state}
      view={<Texts items={[{ text: p.title, lead: true }, { text: p.overview }]} />}
    >
      <SectionForm
        id="titleOverview"
        intent="titleOverview"
        action={editHref('headline')}
        after={<CancelLink section="headline" />}
        lastResult={state.last}
        defaultValue={{ title: p.title, overview: p.overview }}
        submit={t('actions.save')}
      >
        {(x) => (
          <>
            <Input field={x.title} label={t('fields.title')} maxLength={limits.title} />
            <TextArea field={x.overview} label={t('fields.overview')} maxLength={limits.overview} rows={3} />
          </>
        )}
      </SectionForm>
    </ProfileSection>
  )
}

function AboutSection({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="about"
      title={t('sections.about')}
      state={state}
      view={<Texts items={[{ text: p.description }]} />}
    >
      <SectionForm
        id="description"
        intent="description"
        action={editHref('about')}
        after={<CancelLink section="about" />}
        lastResult={state.last}
        defaultValue={{ description: p.description }}
        submit={t('actions.save')}
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
  )
}

function RatesSection({ p, state, o }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const rate = useRate()
  const view = (
    <Facts
      items={[
        [t('fields.hourlyRate'), rate(p.hourlyRate)],
        [t('fields.availability'), p.availability ? t(`availability.${p.availability}`) : null],
        [t('fields.experienceLevel'), p.experienceLevel ? t(`experience.${p.experienceLevel}`) : null],
        [t('fields.yearsOfExperience'), p.yearsOfExperience],
      ]}
    />
  )
  return (
    <ProfileSection id="rates" title={t('sections.rates')} state={state} view={view}>
      <SectionForm
        id="rates"
        intent="rates"
        action={editHref('rates')}
        after={<CancelLink section="rates" />}
        lastResult={state.last}
        submit={t('actions.save')}
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
                hint={rate(p.hourlyRate) ?? t('fields.hourlyRateHint')}
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
  )
}

function PersonalSection({ p, state, o }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="personal"
      title={t('sections.personal')}
      state={state}
      lead={t('fields.genderHint')}
      view={
        <Facts
          items={[
            [t('fields.country'), p.countryName],
            [t('fields.city'), p.city],
            [t('fields.gender'), p.gender ? t(`gender.${p.gender}`) : null],
          ]}
        />
      }
    >
      <SectionForm
        id="personal"
        intent="personal"
        action={editHref('personal')}
        after={<CancelLink section="personal" />}
        lastResult={state.last}
        defaultValue={{ country: p.country ?? '', city: p.city ?? '', gender: p.gender ?? '' }}
        submit={t('actions.save')}
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
  )
}

function LanguagesSection({ p, state, o }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const view = p.languages.length ? (
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
            label={t('actions.remove')}
            last={state.last}
          />
        </li>
      ))}
    </ul>
  ) : (
    <p className="hint">{t('page.empty')}</p>
  )
  return (
    <ProfileSection id="languages" title={t('sections.languages')} state={state} view={view} opens="add">
      <h3>{t('fields.languageForm')}</h3>
      <SectionForm
        key={p.languages.length}
        id="language"
        intent="language"
        action={editHref('languages')}
        lastResult={state.last}
        submit={t('actions.save')}
        after={<CancelLink section="languages" />}
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
  )
}

function DocumentsSection({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const view = (
    <>
      <h3>{t('sections.rateSheet')}</h3>
      {p.rateSheet ? (
        <ul className="file-list">
          <li>
            <a href={`/api/v1/${p.rateSheet.url}`}>{t('files.download', { name: p.rateSheet.name })}</a>
            <RemoveButton
              intent="rateSheetDelete"
              section="documents"
              fields={{}}
              label={t('actions.remove')}
              last={state.last}
            />
          </li>
        </ul>
      ) : (
        <p className="hint">{t('files.rateSheetNone')}</p>
      )}
    </>
  )
  return (
    <ProfileSection
      id="documents"
      title={t('sections.documents')}
      state={state}
      lead={t('files.rateSheetLead')}
      view={view}
    >
      <UploadForm
        id="rateSheet"
        action="/profile?upload=rateSheet&edit=documents#documents"
        kind="spreadsheet"
        accept=".xlsx,.csv"
        label={t('files.rateSheet')}
        submit={t('files.upload')}
        lastResult={state.last}
      />
      <CancelLink section="documents" />
    </ProfileSection>
  )
}
