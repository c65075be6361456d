// The site's languages. A text stored per language has one column per language: `name_en`, `name_de`…
export const locales = ['en', 'es', 'de', 'it', 'ru'] as const
export type Locale = (typeof locales)[number]

export type Localized<P extends string> = { [L in Locale as `${P}_${L}`]: string }
