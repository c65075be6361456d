import fs from 'node:fs'
import path from 'node:path'
import type React from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { supportedLanguages } from '~/lib/i18n'
import type { Catalog, Catalogs } from '~/lib/translator'
import { TranslationsProvider, translatorsOf } from '~/lib/translations'

// Test support: renders a component as the server does (a data router for <Form>, our translator
// with the real locale files), so a test reads the HTML a user without JavaScript gets.
const localesDir = path.resolve(import.meta.dirname, '../../locales')
const resources: Record<string, Record<string, Catalog>> = {}
for (const lng of supportedLanguages) {
  resources[lng] = {}
  for (const file of fs.readdirSync(path.join(localesDir, lng)))
    resources[lng][file.replace(/\.json$/, '')] = JSON.parse(
      fs.readFileSync(path.join(localesDir, lng, file), 'utf8'),
    )
}

export const localeText = (lng: string, ns: string) => resources[lng][ns]

/** `at`: the page's address; `around`: providers the page renders within (inside the translations'). */
export async function renderHtml(
  element: React.ReactElement,
  lng = 'en',
  { at = '/', around = (page: React.ReactElement) => page } = {},
) {
  const translations = { language: lng, fixedT: translatorsOf(resources as Catalogs, lng, 'en') }
  const Stub = createRoutesStub([{ path: '*', Component: () => element, HydrateFallback: () => null }])
  return renderToString(
    <TranslationsProvider value={translations}>
      {around(<Stub initialEntries={[at]} />)}
    </TranslationsProvider>,
  )
}

/** The HTML's text, tags removed and whitespace folded (what a reader or a screen reader gets). */
export const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<(\w+)[^>]*aria-hidden="true"[^>]*>[^<]*<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .replace(/ ([:,.])/g, '$1')
    .trim()
