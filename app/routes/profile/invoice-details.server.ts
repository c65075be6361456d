import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import {
  invoiceDetailsContract as c,
  invoiceDetailsInput,
} from '#server/modules/payments/invoice-details-contract.ts'

// The account settings' invoice details form (decision 311): parsed with the API's own schema,
// saved through the API, then back to the section with its notice.
const fields = [
  'legalName',
  'addressLine1',
  'addressLine2',
  'postcode',
  'city',
  'country',
  'vatId',
  'vatRatePercent',
]

export const loadInvoiceDetails = (context: Readonly<RouterContextProvider>) =>
  apiFor(context).call(c.invoiceDetails)

export async function saveInvoiceDetails(context: Readonly<RouterContextProvider>, formData: FormData) {
  const intent = 'invoiceDetails' as const
  const submission = parseWithZod(formData, { schema: invoiceDetailsInput })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  try {
    await apiFor(context).call(c.saveInvoiceDetails, { body: submission.value })
    return redirect('/profile/account-settings?saved=invoice-details#invoice-details')
  } catch (error) {
    const reply = replyWithApiError(submission, error, fields)
    return data({ intent, result: reply.data }, reply.init ?? undefined)
  }
}
