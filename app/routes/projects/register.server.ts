import { data } from 'react-router'
import { ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import type { FieldReply } from '~/components/ui/field'

type Reply = (o: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) => unknown

/**
 * The register forms' answer to an API refusal (decision 318): a 400 or 409 that names a field
 * stands under it, any other on top of the form; 401/403/404 follow docs/product.md §8.
 */
export function refusedReply(error: unknown, reply: Reply) {
  if (error instanceof ApiCallError && (error.status === 400 || error.status === 409)) {
    const { state: _, ...fieldErrors } = error.fieldErrors
    const detail = typeof error.problem === 'object' ? (error.problem.detail ?? '') : error.problem
    const formErrors = Object.keys(fieldErrors).length ? [] : [detail]
    return data({ reply: reply({ fieldErrors, formErrors }) as FieldReply }, { status: error.status })
  }
  throwApiError(error)
}
