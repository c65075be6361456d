import type { RouterContextProvider } from 'react-router'
import { apiFor } from './api.server'
import { keptForSession } from './session-data.server'
import { catalogueContract } from '../../server/modules/catalogue/contract'

// The catalogue is the same for everyone in a language: read once for every session by the page
// cache's rules (decision 200), so an admin's change, a write, shows at once. The answers are
// shared by every page that asks for them: read them, never change them.
type Context = Readonly<RouterContextProvider>

/** The areas (the shell's mega-menu and footer, the home page). */
export const keptCategories = (context: Context) =>
  keptForSession(context, null, 'categories', () =>
    apiFor(context, { token: null }).call(catalogueContract.categories),
  )

/** Every area with its subcategories and their skills (the pickers, Find Freelancers' filters). */
export const keptCategoryTree = (context: Context) =>
  keptForSession(context, null, 'category-tree', () =>
    apiFor(context, { token: null }).call(catalogueContract.allCategories),
  )
