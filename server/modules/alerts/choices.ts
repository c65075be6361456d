// The saved searches' choices as plain values, so a page can list them without the schemas (and
// zod) reaching the browser (decision 316).
export const savedSearchKinds = ['project', 'freelancer'] as const
export type SavedSearchKind = (typeof savedSearchKinds)[number]
export const alertFrequencies = ['daily', 'weekly', 'never'] as const
export type AlertFrequency = (typeof alertFrequencies)[number]
