import { useTranslation } from '~/lib/translations'
import type { OwnFreelancer } from '#server/modules/profiles/contract.ts'
import { CategoriesSection } from './categories'
import {
  CertificationsSection,
  EducationSection,
  ExperienceSection,
  PortfolioSection,
  type FreelancerPart,
} from './freelancer-lists'
import { RemoveButton } from './list-section'
import { Facts, Texts, useRate } from './views'
import { lazyPart, ProfileSection, type Catalogue, type SectionState } from './section'

// The freelancer's sections, as they show; each form loads when its section opens (decision 327).
const forms = () => import('./freelancer-forms')
const HeadlineForm = lazyPart(forms, 'HeadlineForm')
const AboutForm = lazyPart(forms, 'AboutForm')
const RatesForm = lazyPart(forms, 'RatesForm')
const PersonalForm = lazyPart(forms, 'PersonalForm')
const LanguageForm = lazyPart(forms, 'LanguageForm')
const DocumentsForm = lazyPart(forms, 'DocumentsForm')

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
  const part = { p, state, data }
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

function TitleSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  const { p, state } = part
  return (
    <ProfileSection
      id="headline"
      title={t('sections.titleOverview')}
      state={state}
      view={<Texts items={[{ text: p.title, lead: true }, { text: p.overview }]} />}
    >
      <HeadlineForm {...part} />
    </ProfileSection>
  )
}

function AboutSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="about"
      title={t('sections.about')}
      state={part.state}
      view={<Texts items={[{ text: part.p.description }]} />}
    >
      <AboutForm {...part} />
    </ProfileSection>
  )
}

function RatesSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  const { p, state } = part
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
      <RatesForm {...part} />
    </ProfileSection>
  )
}

function PersonalSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  const { p, state } = part
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
      <PersonalForm {...part} />
    </ProfileSection>
  )
}

function LanguagesSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  const { p, state } = part
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
      <LanguageForm {...part} />
    </ProfileSection>
  )
}

function DocumentsSection(part: FreelancerPart) {
  const { t } = useTranslation('profile')
  const { p, state } = part
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
      <DocumentsForm {...part} />
    </ProfileSection>
  )
}
