import { data, redirect, type RouterContextProvider } from 'react-router'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { dataExportContract as c } from '#server/modules/data-export/contract.ts'

// The account settings' "Download your data" section (decision 331): its state from the API, and the
// request, which redirects back to the section, or answers why not (one at a time, one a day).
export const loadDataExport = (context: Readonly<RouterContextProvider>) => apiFor(context).call(c.dataExport)

const refusals = ['export_in_progress', 'export_rate_limited']

export async function requestDataExport(context: Readonly<RouterContextProvider>) {
  try {
    await apiFor(context).call(c.requestDataExport)
    return redirect('/profile/account-settings?saved=data-export#data-export')
  } catch (error) {
    if (error instanceof ApiCallError && refusals.includes(error.code ?? ''))
      return data({ intent: 'dataExport' as const, refused: error.code! }, { status: error.status })
    throw error
  }
}
