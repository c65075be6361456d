import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../../tests/support/render'
import { supportedLanguages } from '~/lib/i18n'
import { ProjectCard, type ProjectCardData } from './ui'

// Issue 39 (item 11): "the word 'Remote' stays English". Where the work is done shows on a project's
// card, its page and the create and edit forms, always through the `projects` texts: no language
// but English may word it with the English word.
const localesDir = path.resolve(import.meta.dirname, '../../../locales')
const valuesOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value as object).flatMap(valuesOf)

const card: ProjectCardData = {
  id: 1,
  title: 'Steel canopy for a school entrance',
  excerpt: 'Calculations for a cantilevered canopy.',
  status: 'open',
  category: { id: 1, name: 'Engineering' },
  subcategory: null,
  skills: [],
  budgetType: 'fixed',
  budgetMinor: 120000,
  currency: 'EUR',
  experienceLevel: null,
  remote: true,
  location: null,
  country: null,
  proposalCount: 0,
  publishedAt: '2026-05-01T00:00:00Z',
  createdAt: '2026-05-01T00:00:00Z',
  client: { id: 2, name: 'Ana Ruiz' },
}

describe('remote work in the reader’s language', () => {
  it.each(supportedLanguages.filter((l) => l !== 'en'))('no %s text says "remote" in English', (lng) => {
    for (const file of fs.readdirSync(path.join(localesDir, lng)))
      for (const text of valuesOf(JSON.parse(fs.readFileSync(path.join(localesDir, lng, file), 'utf8'))))
        expect(text, `${lng}/${file}`).not.toMatch(/\bremote\b/i)
  })

  it.each(supportedLanguages)('a remote project’s card says so in %s', async (lng) => {
    const text = textOf(await renderHtml(<ProjectCard p={card} href="/projects/details/1" />, lng))
    const word = (
      JSON.parse(fs.readFileSync(path.join(localesDir, lng, 'projects.json'), 'utf8')) as {
        fields: { remote: string }
      }
    ).fields.remote
    expect(text).toContain(word)
    if (lng !== 'en') expect(text).not.toMatch(/\bRemote\b/)
  })
})

describe('an on-site project’s country in the reader’s language', () => {
  it.each([
    ['en', 'United Kingdom'],
    ['de', 'Vereinigtes Königreich'],
    ['ru', 'Великобритания'],
  ])('a card with only a country names it in %s, never as its code', async (lng, name) => {
    const onSite = { ...card, remote: false, country: 'GB' }
    const text = textOf(await renderHtml(<ProjectCard p={onSite} href="/projects/details/1" />, lng))
    expect(text).toContain(name)
    expect(text).not.toMatch(/\bGB\b/)
  })
})
