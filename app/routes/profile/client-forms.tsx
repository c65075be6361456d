import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { OwnClient } from '#server/modules/profiles/contract.ts'
import { limits } from '#server/modules/profiles/rules.ts'
import { Input, Select, TextArea } from './fields'
import { PlaceFields, SectionEditForm } from './section-forms'
import { useOptions, type Options } from './options'
import type { Catalogue, SectionState } from './section'

// The forms of a client's sections (an individual's or a company's), loaded when one of them opens
// (decision 327); the sections' views are in client.tsx.

/** What each of the client's sections and their forms is handed. */
export interface ClientPart {
  p: OwnClient
  company: boolean
  state: SectionState
}

export function BasicsForm({ p, company, state, data }: ClientPart & { data: Catalogue }) {
  const { t } = useTranslation('profile')
  const o = useOptions(data)
  const place = { country: p.country ?? '', city: p.city ?? '', industryId: p.industry?.id.toString() ?? '' }
  return (
    <>
      {company ? <CompanyName p={p} /> : null}
      <SectionEditForm
        id={company ? 'companyBasics' : 'clientBasics'}
        section="basics"
        state={state}
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
              <PlaceFields x={x} o={o} country={p.country} />
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
      </SectionEditForm>
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

export function AboutForm({ p, company, state }: ClientPart) {
  const { t } = useTranslation('profile')
  return (
    <SectionEditForm
      id={company ? 'companyAbout' : 'clientAbout'}
      section="about"
      state={state}
      defaultValue={{ who: p.who, what: p.what, description: p.description }}
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
    </SectionEditForm>
  )
}
