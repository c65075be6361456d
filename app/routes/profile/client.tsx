import { useTranslation } from '~/lib/translations'
import type { OwnClient } from '#server/modules/profiles/contract.ts'
import { sectionTitle } from './kind'
import { CategoriesSection } from './categories'
import { Facts, Texts } from './views'
import { lazyPart, ProfileSection, type Catalogue, type SectionState } from './section'
import type { ClientPart } from './client-forms'

// An individual client's or a company's sections, as they show; each form loads when its section
// opens (decision 327).
const forms = () => import('./client-forms')
const BasicsForm = lazyPart(forms, 'BasicsForm')
const AboutForm = lazyPart(forms, 'AboutForm')

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
  return (
    <>
      <BasicsSection p={p} company={company} state={state} data={data} />

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

function BasicsSection({ p, company, state, data }: ClientPart & { data: Catalogue }) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="basics"
      title={t('sections.basicDetails')}
      state={state}
      view={<BasicsView p={p} company={company} />}
    >
      <BasicsForm p={p} company={company} state={state} data={data} />
    </ProfileSection>
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
      <AboutForm p={p} company={company} state={state} />
    </ProfileSection>
  )
}
