import { useLocation, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { supportedLanguages } from '~/lib/i18n'
import { GlobeIcon } from '../ui/icons'

/** Each language named in itself, so a reader finds their own whatever the page's language is. */
export const languageNames: Record<(typeof supportedLanguages)[number], string> = {
  en: 'English',
  es: 'Español',
  de: 'Deutsch',
  it: 'Italiano',
  ru: 'Русский',
}

// A POST to /set-language, which sets the `lang` cookie (bare code) and redirects back: works
// without JavaScript. The document reloads, so the new language's texts are downloaded.
export function LanguageSwitcher({ variant }: { variant: 'bar' | 'footer' }) {
  const { t, i18n } = useTranslation('shell')
  const location = useLocation()
  const current = i18n.language
  return (
    <details
      className={`menu language-switcher language-${variant} ${variant === 'bar' ? 'menu-end' : 'menu-up'}`}
      data-menu
    >
      <summary
        className={variant === 'bar' ? 'icon-button' : 'link-button'}
        aria-label={t('language.label', { language: languageNames[current as 'en'] ?? current })}
      >
        <GlobeIcon />
        <span className={variant === 'bar' ? 'lang-code' : ''}>
          {variant === 'bar' ? current.toUpperCase() : (languageNames[current as 'en'] ?? current)}
        </span>
      </summary>
      <Form method="post" action="/set-language" reloadDocument className="menu-panel language-panel">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <ul>
          {supportedLanguages.map((l) => (
            <li key={l}>
              <button
                type="submit"
                name="lang"
                value={l}
                lang={l}
                aria-current={l === current ? 'true' : undefined}
                className="menu-item"
              >
                {languageNames[l]}
              </button>
            </li>
          ))}
        </ul>
      </Form>
    </details>
  )
}
