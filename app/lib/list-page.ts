/** The page of a list a URL asks for (`?page=`): a whole number from 1 to 10,000, else 1. */
export function listPage(url: URL) {
  return Math.max(1, Math.min(10_000, Number(url.searchParams.get('page')) || 1))
}
