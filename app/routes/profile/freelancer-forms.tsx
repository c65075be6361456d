import { useTranslation } from '~/lib/translations'
import type { OwnFreelancer } from '#server/modules/profiles/contract.ts'
import { amountText, limits } from '#server/modules/profiles/rules.ts'
import { Input, SectionForm, Select, TextArea, UploadForm } from './fields'
import { placeholderUnless, useOptions } from './options'
import { CancelLink, editHref, type Catalogue, type SectionState } from './section'
import { useRate } from './views'

// The forms of the freelancer's sections, loaded when one of them opens (decision 327); the
// sections' views are in freelancer.tsx.

/** What each of the freelancer's forms is handed. */
export interface FreelancerForm {
  p: OwnFreelancer
  state: SectionState
  data: Catalogue
}

export function HeadlineForm({ p, state }: FreelancerForm) {
  const { t } = useTranslation('profile')
  return (
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
  )
}

export function AboutForm({ p, state }: FreelancerForm) {
  const { t } = useTranslation('profile')
  return (
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
  )
}

export function RatesForm({ p, state, data }: FreelancerForm) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const rate = useRate()
  return (
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
  )
}

export function PersonalForm({ p, state, data }: FreelancerForm) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  return (
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
  )
}

export function LanguageForm({ p, state, data }: FreelancerForm) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  return (
    <>
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
    </>
  )
}

export function DocumentsForm({ state }: FreelancerForm) {
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
