import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { supportedLanguages } from '~/lib/i18n'
import { localeText } from '../../../tests/support/render'
import { profileSectionOf } from '~/components/profile-completeness'
import { companySections, freelancerSections, individualSections } from '#server/modules/profiles/rules.ts'
import { sectionTitle, sectionsOf, type Kind } from './kind'

// The editor's sections, the completeness items and the side list stay in step: every item the
// profiles service may report missing links to a section that this kind of account has.
describe('Profile editor sections', () => {
  it.each([
    ['freelancer', freelancerSections],
    ['individual', individualSections],
    ['company', companySections],
  ] as const)('a %s can reach every missing item of its completeness', (kind, items) => {
    for (const item of items) expect(sectionsOf(kind as Kind), item).toContain(profileSectionOf[item])
  })

  it.each(['freelancer', 'individual', 'company'] as const)(
    'every %s section has a title in every language',
    (kind) => {
      for (const lng of supportedLanguages)
        for (const id of sectionsOf(kind)) {
          const [group, key] = sectionTitle(id, kind).split('.')
          expect(
            (localeText(lng, 'profile')[group] as Record<string, string>)[key],
            `${lng} ${id}`,
          ).toBeTruthy()
        }
    },
  )

  it('builds its cards, buttons and notices from the design system', () => {
    const dir = import.meta.dirname
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx') && f !== 'account-settings.tsx')) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8')
      expect(source, file).not.toMatch(
        /className="(card|button|notice)\b|\bbutton-(primary|ghost|danger)\b|(?<!ui-)notice-error/,
      )
    }
  })
})
