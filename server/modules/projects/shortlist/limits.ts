// The shortlist's limits, apart from its contract so the page's form reads them without zod.
export const shortlistLimits = { note: 500 } as const
