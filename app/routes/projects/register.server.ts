import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import type { FieldReply } from '~/components/ui/field'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'
import { transmittalForm } from '#server/modules/projects/deliverables/schemas.ts'

type Reply = (o: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) => unknown

/**
 * The register forms' answer to an API refusal (decision 318), under `key` in the action's data: a
 * 400 or 409 that names a field stands under it, any other on top of the form (`onTop`: always, for
 * a form whose rows the API numbers differently); 401/403/404 follow docs/product.md §8.
 */
export function refusedReply<K extends string = 'reply'>(
  error: unknown,
  reply: Reply,
  { key = 'reply' as K, onTop = false }: { key?: K; onTop?: boolean } = {},
) {
  if (error instanceof ApiCallError && (error.status === 400 || error.status === 409)) {
    const { state: _, ...named } = error.fieldErrors
    const detail = typeof error.problem === 'object' ? (error.problem.detail ?? '') : error.problem
    const fieldErrors = onTop ? {} : named
    const messages = onTop ? Object.values(named).flat().slice(0, 1) : []
    const formErrors = Object.keys(fieldErrors).length ? [] : messages.length ? messages : [detail]
    const body = { [key]: reply({ fieldErrors, formErrors }) as FieldReply } as Record<K, FieldReply>
    return data(body, { status: error.status })
  }
  throwApiError(error)
}

/**
 * The register's form that issues several deliverables of an installment under one transmittal:
 * to the transmittal once sent; a refusal of one of them (the API numbers only the rows chosen)
 * on top of the form, naming the deliverable.
 */
export async function issueMany(context: Readonly<RouterContextProvider>, projectId: number, form: FormData) {
  const submission = parseWithZod(form, { schema: transmittalForm })
  if (submission.status !== 'success')
    return data({ issue: submission.reply() as FieldReply }, { status: 400 })
  try {
    const sent = await apiFor(context).call(d.issueTransmittal, {
      params: { projectId },
      body: submission.value,
    })
    return redirect(`/projects/transmittal/${sent.id}?sent=1`)
  } catch (error) {
    return refusedReply(error, (o) => submission.reply(o), { key: 'issue', onTop: true })
  }
}
