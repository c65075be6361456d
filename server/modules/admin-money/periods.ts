// The dashboard's periods, in weeks (the GET filter's choices), as a plain value the page's
// component reads in the browser with no zod (issue 38); ./contract.ts checks the query against it.
export const dashboardPeriods = [4, 12, 26, 52] as const
