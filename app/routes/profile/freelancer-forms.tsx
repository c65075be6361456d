import { useTranslation } from '~/lib/translations'
import { amountText, limits } from '#server/modules/profiles/rules.ts'
import { Input, Select, TextArea, UploadForm } from './fields'
import { PlaceFields, SectionEditForm } from './section-forms'
import { placeholderUnless, useOptions } from './options'
import { CancelLink } from './section'
import type { FreelancerPart } from './freelancer-lists'
import { useRate } from './views'

// The forms of the freelancer's sections, loaded when one of them opens (decision 327); the
// sections' views are in freelancer.tsx.

export function HeadlineForm({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <SectionEditForm
      id="titleOverview"
      section="headline"
      state={state}
      defaultValue={{ title: p.title, overview: p.overview }}
    >
      {(x) => (
        <>
          <Input field={x.title} label={t('fields.title')} maxLength={limits.title} />
          <TextArea field={x.overview} label={t('fields.overview')} maxLength={limits.overview} rows={3} />
        </>
      )}
    </SectionEditForm>
  )
}

export function AboutForm({ p, state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <SectionEditForm
      id="description"
      section="about"
      state={state}
      defaultValue={{ description: p.description }}
    >
      {(x) => (
        <TextArea
          field={x.description}
          label={t('fields.description')}
          maxLength={limits.description}
          rows={8}
        />
      )}
    </SectionEditForm>
  )
}

export function RatesForm({ p, state, data }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const rate = useRate()
  return (
    <SectionEditForm
      id="rates"
      section="rates"
      state={state}
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
    </SectionEditForm>
  )
}

export function PersonalForm({ p, state, data }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  return (
    <SectionEditForm
      id="personal"
      section="personal"
      state={state}
      defaultValue={{ country: p.country ?? '', city: p.city ?? '', gender: p.gender ?? '' }}
    >
      {(x) => (
        <div className="field-row">
          <PlaceFields x={x} o={o} country={p.country} />
          <Select
            field={x.gender}
            label={t('fields.gender')}
            options={o.genders}
            placeholder={placeholderUnless(p.gender, t('fields.choose'))}
          />
        </div>
      )}
    </SectionEditForm>
  )
}

export function LanguageForm({ p, state, data }: FreelancerPart) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  return (
    <>
      <h3>{t('fields.languageForm')}</h3>
      <SectionEditForm key={p.languages.length} id="language" section="languages" state={state}>
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
      </SectionEditForm>
    </>
  )
}

export function DocumentsForm({ state }: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <>
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
    </>
  )
}
