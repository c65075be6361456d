import type { Route } from './+types/export'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { adminCatalogueContract as c } from '#server/modules/catalogue/admin-contract.ts'
import { sheetResponse, writeSkillSheet } from '#server/modules/catalogue/sheet.ts'
import { locales } from '#server/db/schema.ts'

// /admin/categories/export/{xlsx|csv} (SuperAdmin only): the skills sheet as a file, in the columns
// the import reads, so an exported sheet, edited, imports again (decision 246).
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const format = params.format === 'csv' ? 'csv' : params.format === 'xlsx' ? 'xlsx' : null
  if (!format) throw new Response('format: must be xlsx or csv', { status: 404 })
  try {
    const { data } = await apiFor(context).call(c.exportRows)
    const rows = data.map(([category, subcategory, ...names]) => ({
      category,
      subcategory,
      names: Object.fromEntries(locales.map((l, i) => [l, names[i] ?? ''])) as Record<
        (typeof locales)[number],
        string
      >,
    }))
    return sheetResponse(await writeSkillSheet(rows, format), format)
  } catch (error) {
    throwApiError(error)
  }
}
