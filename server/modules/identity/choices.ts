// The identity forms' choices as plain values, with no zod: the account settings page's component
// lists the languages in the browser (issue 38), and ./inputs.ts builds its schemas from them.
export const languages = ['en', 'es', 'de', 'it', 'ru'] as const
export const accountTypes = ['client', 'company', 'freelancer'] as const
export type SignupKind = (typeof accountTypes)[number]
