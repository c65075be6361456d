import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { ApiCallError } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import type { ComplaintDetail } from '#server/modules/complaints/contract.ts'

// The ticket pages' calls that carry files (the author's and support's): JSON when no file comes,
// multipart/form-data (the same fields plus `files`) when one does. Shared by /ticketSupport and
// /admin/complaints, whose forms have the same shape.

/** The files a form carries (an empty file input sends one empty part). */
export const filesOf = (form: FormData) =>
  form.getAll('files').filter((f): f is File => f instanceof File && f.size > 0 && f.name !== '')

export type FormAnswer = {
  reply?: {
    error?: Record<string, string[] | null> | null
    initialValue?: Record<string, unknown> | null
  } | null
  notice?: string
}

/**
 * Parses `form` with `schema` and sends it: `json` without files, else a multipart POST to `path`.
 * Answers the ticket, or a 400 with the form's errors (the API's own refusals shown on its fields).
 */
export async function submitWithFiles<S extends z.ZodObject>(
  context: Readonly<RouterContextProvider>,
  form: FormData,
  schema: S,
  path: string,
  json: (value: z.output<S>) => Promise<ComplaintDetail>,
): Promise<{ ok: ComplaintDetail } | ReturnType<typeof data<FormAnswer>>> {
  const submission = parseWithZod(form, { schema })
  if (submission.status !== 'success') return data<FormAnswer>({ reply: submission.reply() }, { status: 400 })
  const files = filesOf(form)
  try {
    if (!files.length) return { ok: await json(submission.value) }
    const body = new FormData()
    for (const [k, v] of Object.entries(submission.value as Record<string, unknown>)) body.set(k, String(v))
    for (const f of files) body.append('files', f, f.name)
    return { ok: (await postMultipart(context, path, body)) as ComplaintDetail }
  } catch (error) {
    if (
      !(error instanceof ApiCallError) ||
      (error.status !== 400 && error.status !== 409) ||
      typeof error.problem !== 'object'
    )
      throwApiError(error)
    const problem = error.problem
    if (error.status === 409) return data<FormAnswer>({ notice: 'errors.conflict' }, { status: 409 })
    const fieldErrors: Record<string, string[]> = {}
    for (const [field, messages] of Object.entries(problem.errors ?? {})) {
      if (field === 'files')
        fieldErrors.files = [problem.code === 'file_too_large' ? 'errors.fileSize' : 'errors.fileType']
      else if (field in schema.shape) fieldErrors[field] = field === 'subject' ? ['errors.subject'] : messages
    }
    if (!Object.keys(fieldErrors).length) return data<FormAnswer>({ notice: problem.detail }, { status: 400 })
    return data<FormAnswer>({ reply: submission.reply({ fieldErrors }) }, { status: 400 })
  }
}

export const isSent = (
  answer: Awaited<ReturnType<typeof submitWithFiles>>,
): answer is { ok: ComplaintDetail } => 'ok' in answer

/** The ticket id of a page's address; anything else is the not-found page. */
export function ticketIdOf(params: { complaintId?: string }) {
  const id = Number(params.complaintId)
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31) throw redirect('/auth/not-found')
  return id
}
