/** The API names images relative to itself (docs/product.md §3: files/{id}/download); the page needs a path. */
export function imageSrc(url: string | null | undefined) {
  if (!url) return null
  return /^(https?:)?\/\//.test(url) || url.startsWith('/') ? url : `/api/v1/${url}`
}
