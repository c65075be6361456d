import type { RouterContextProvider } from 'react-router'
import { apiFor } from './api.server'
import type { ResultOf } from '#server/api/contract.ts'
import { catalogueContract } from '#server/modules/catalogue/contract.ts'

// The catalogue is the same for everyone in a language, so it is read without the caller's token.
type Context = Readonly<RouterContextProvider>

// The layout reads the areas for its menus and the home page for its grid, in the same request and
// side by side: one call per request serves both (the context is the request's own).
const areasOfRequest = new WeakMap<Context, Promise<ResultOf<typeof catalogueContract.categories>>>()

/** The areas (the shell's mega-menu and footer, the home page). */
export function readCategories(context: Context) {
  let areas = areasOfRequest.get(context)
  if (!areas)
    areasOfRequest.set(context, (areas = apiFor(context, { token: null }).call(catalogueContract.categories)))
  return areas
}

/** Every area with its subcategories and their skills (the pickers, Find Freelancers' filters). */
export const readCategoryTree = (context: Context) =>
  apiFor(context, { token: null }).call(catalogueContract.allCategories)
