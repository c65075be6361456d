// The admin content screens' plain values, with no zod: the pages' components read them in the
// browser (issue 38), and ./admin-contract.ts builds its schemas from them.
export const contentKinds = ['blogs', 'faq', 'boxes', 'services', 'logos'] as const
export type ContentKind = (typeof contentKinds)[number]

/** The icons a home box may show (drawn by app/components/content/pieces.tsx). */
export const boxIcons = ['clipboard-list', 'users', 'file-signature', 'shield-check', 'check'] as const
export const faqAudiences = ['all', 'client', 'freelancer'] as const
