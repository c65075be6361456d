import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { OwnClient } from '#server/modules/profiles/contract.ts'
import { limits } from '#server/modules/profiles/rules.ts'
import { Input, SectionForm, Select, TextArea } from './fields'
import { placeholderUnless, useOptions, type Options } from './options'
import { CancelLink, editHref, type Catalogue, type SectionState } from './section'

// The forms of a client's sections (an individual's or a company's), loaded when one of them opens
// (decision 327); the sections' views are in client.tsx.

/** What each of the client's forms is handed. */
export interface ClientForm {
  p: OwnClient
  company: boolean
  state: SectionState
}

export function BasicsForm({ p, company, state, data }: ClientForm & { data: Catalogue }) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const place = { country: p.country ?? '', city: p.city ?? '', industryId: p.industry?.id.toString() ?? '' }
  return (
    <>
      {company ? <CompanyName p={p} /> : null}
      <SectionForm
        id={company ? 'companyBasics' : 'clientBasics'}
        intent={company ? 'companyBasics' : 'clientBasics'}
        action={editHref('basics')}
        after={<CancelLink section="basics" />}
        lastResult={state.last}
        submit={t('actions.save')}
        defaultValue={
          company
            ? {
                ...place,
                website: p.website ?? '',
                companySize: p.companySize ?? '',
                foundedYear: p.foundedYear?.toString() ?? '',
              }
            : place
        }
      >
        {(x) => (
          <>
            <div className="field-row">
              <Select
                field={x.country}
                label={t('fields.country')}
                options={o.countries}
                placeholder={placeholderUnless(p.country, t('fields.choose'))}
              />
              <Input field={x.city} label={t('fields.city')} maxLength={limits.city} />
              <Select
                field={x.industryId}
                label={t('fields.industry')}
                options={o.industries}
                placeholder={t('fields.none')}
              />
            </div>
            {company ? <CompanyFields x={x} o={o} /> : null}
          </>
        )}
      </SectionForm>
    </>
  )
}

/** A company's name is changed in Account Settings, with the account's name. */
function CompanyName({ p }: { p: OwnClient }) {
  const { t } = useTranslation('profile')
  return (
    <p>
      {t('fields.companyName')}: <strong>{p.companyName}</strong>{' '}
      <Link to="/profile/account-settings">{t('page.changeInSettings')}</Link>
    </p>
  )
}

/** A company's own basic details: website, size and founding year. */
function CompanyFields({ x, o }: { x: Record<string, any>; o: Options }) {
  const { t } = useTranslation('profile')
  return (
    <div className="field-row">
      <Input field={x.website} label={t('fields.website')} type="url" maxLength={limits.url} />
      <Select
        field={x.companySize}
        label={t('fields.companySize')}
        options={o.sizes}
        placeholder={t('fields.none')}
      />
      <Input field={x.foundedYear} label={t('fields.foundedYear')} type="number" min={1800} max={2100} />
    </div>
  )
}

export function AboutForm({ p, company, state }: ClientForm) {
  const { t } = useTranslation('profile')
  return (
    <SectionForm
      id={company ? 'companyAbout' : 'clientAbout'}
      intent={company ? 'companyAbout' : 'clientAbout'}
      action={editHref('about')}
      after={<CancelLink section="about" />}
      lastResult={state.last}
      defaultValue={{ who: p.who, what: p.what, description: p.description }}
      submit={t('actions.save')}
    >
      {(x) => (
        <>
          <TextArea
            field={x.who}
            label={t(company ? 'sections.whoAreWe' : 'sections.whoIAm')}
            maxLength={limits.longText}
            rows={3}
          />
          <TextArea
            field={x.what}
            label={t(company ? 'sections.whatDoWeDo' : 'sections.whatIDo')}
            maxLength={limits.longText}
            rows={3}
          />
          <TextArea
            field={x.description}
            label={t('fields.description')}
            maxLength={limits.description}
            rows={6}
          />
        </>
      )}
    </SectionForm>
  )
}
