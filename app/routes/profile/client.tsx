import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { OwnClient } from '#server/modules/profiles/contract.ts'
import { limits } from '#server/modules/profiles/rules.ts'
import { sectionTitle } from './kind'
import { Input, SectionForm, Select, TextArea } from './fields'
import { CategoriesSection } from './categories'
import { Facts, Texts } from './views'
import {
  CancelLink,
  editHref,
  ProfileSection,
  placeholderUnless,
  useOptions,
  type Catalogue,
  type Options,
  type SectionState,
} from './section'

/** What each of the client's sections is handed. */
interface ClientPart {
  p: OwnClient
  company: boolean
  state: SectionState
}

/** An individual client's or a company's profile: basic details, about, and (individuals) areas of interest. */
export function ClientSections({
  p,
  company,
  data,
  state,
}: {
  p: OwnClient
  company: boolean
  data: Catalogue
  state: SectionState
}) {
  const o = useOptions(data)
  return (
    <>
      <BasicsSection p={p} company={company} state={state} o={o} />

      <AboutSection p={p} company={company} state={state} />

      {company ? null : (
        <CategoriesSection
          data={data}
          state={state}
          intent="clientCategorization"
          categoryId={p.category?.id ?? null}
          subcategoryIds={p.subcategories.map((s) => s.id)}
        />
      )}
    </>
  )
}

function BasicsSection({ p, company, state, o }: ClientPart & { o: Options }) {
  const { t } = useTranslation('profile')
  const place = { country: p.country ?? '', city: p.city ?? '', industryId: p.industry?.id.toString() ?? '' }
  return (
    <ProfileSection
      id="basics"
      title={t('sections.basicDetails')}
      state={state}
      view={<BasicsView p={p} company={company} />}
    >
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
    </ProfileSection>
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

function BasicsView({ p, company }: { p: OwnClient; company: boolean }) {
  const { t } = useTranslation('profile')
  return (
    <Facts
      items={[
        [t('fields.companyName'), company ? p.companyName : null],
        [t('fields.country'), p.countryName],
        [t('fields.city'), p.city],
        [t('fields.industry'), p.industry?.name],
        [
          t('fields.website'),
          p.website ? (
            <a href={p.website} rel="nofollow noopener noreferrer">
              {p.website}
            </a>
          ) : null,
        ],
        [t('fields.companySize'), p.companySize ? t(`companySize.${p.companySize}`) : null],
        [t('fields.foundedYear'), p.foundedYear],
      ]}
    />
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

function AboutSection({ p, company, state }: ClientPart) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="about"
      title={t(sectionTitle('about', company ? 'company' : 'individual'))}
      state={state}
      view={
        <Texts
          items={[
            { label: t(company ? 'sections.whoAreWe' : 'sections.whoIAm'), text: p.who },
            { label: t(company ? 'sections.whatDoWeDo' : 'sections.whatIDo'), text: p.what },
            { label: t('fields.description'), text: p.description },
          ]}
        />
      }
    >
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
    </ProfileSection>
  )
}
