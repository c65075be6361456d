import fs from 'node:fs'
import path from 'node:path'
import type React from 'react'
import { renderToString } from 'react-dom/server'
import { createInstance } from 'i18next'
import { I18nextProvider } from 'react-i18next'
import { createRoutesStub } from 'react-router'
import { i18nOptions, supportedLanguages } from '~/lib/i18n'

// Test support: renders a component as the server does (a data router for <Form>, i18next with the
// real locale files), so a test reads the HTML a user without JavaScript gets.
const localesDir = path.resolve(import.meta.dirname, '../../locales')
const resources: Record<string, Record<string, unknown>> = {}
for (const lng of supportedLanguages) {
  resources[lng] = {}
  for (const file of fs.readdirSync(path.join(localesDir, lng)))
    resources[lng][file.replace(/\.json$/, '')] = JSON.parse(
      fs.readFileSync(path.join(localesDir, lng, file), 'utf8'),
    )
}

export const localeText = (lng: string, ns: string) => resources[lng][ns] as Record<string, unknown>

/** `at`: the page's address; `around`: providers the page renders within (inside i18next's). */
export async function renderHtml(
  element: React.ReactElement,
  lng = 'en',
  { at = '/', around = (page: React.ReactElement) => page } = {},
) {
  const i18n = createInstance()
  await i18n.init({ ...i18nOptions, lng, ns: Object.keys(resources.en), resources: resources as never })
  const Stub = createRoutesStub([{ path: '*', Component: () => element, HydrateFallback: () => null }])
  return renderToString(
    <I18nextProvider i18n={i18n}>{around(<Stub initialEntries={[at]} />)}</I18nextProvider>,
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
