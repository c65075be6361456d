import type { RouterContextProvider } from 'react-router'
import { apiFor } from './api.server'
import { catalogueContract } from '#server/modules/catalogue/contract.ts'

// The catalogue is the same for everyone in a language, so it is read without the caller's token.
type Context = Readonly<RouterContextProvider>

/** The areas (the shell's mega-menu and footer, the home page). */
export const readCategories = (context: Context) =>
  apiFor(context, { token: null }).call(catalogueContract.categories)

/** Every area with its subcategories and their skills (the pickers, Find Freelancers' filters). */
export const readCategoryTree = (context: Context) =>
  apiFor(context, { token: null }).call(catalogueContract.allCategories)
