import { data, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { getInstance } from '~/middleware/i18next'
import {
  adminCatalogueContract as c,
  catalogueKinds,
  createSchema,
  moveSchema,
  renameSchema,
} from '#server/modules/catalogue/admin-contract.ts'

// The one action of the catalogue pages: every form posts an `intent` and a `form` key (which of the
// page's many forms it was, so its errors show beside it), and each becomes one Admin API call.
// Success goes back to the page with a notice; refusals come back to the form that sent them.
export type CatalogueAnswer = {
  form: string
  reply?: {
    error?: Record<string, string[] | null> | null
    initialValue?: Record<string, unknown> | null
  } | null
  notice?: string
}

const target = z.object({ kind: z.enum(catalogueKinds), id: z.coerce.number().int().positive() })
const fileOf = (form: FormData, name: string) => {
  const f = form.get(name)
  return f instanceof File && f.size > 0 && f.name ? f : null
}
// The API's words for its own refusals, as keys of the adminCatalog namespace.
const fieldKeys: Array<[RegExp, string]> = [
  [/already/, 'errors.nameTaken'],
  [/must not start/, 'errors.formula'],
  [/Invalid Image|valid image/, 'errors.invalidImage'],
  [/size should not exceed/, 'errors.fileSize'],
]
const keyOf = (message: string) => fieldKeys.find(([re]) => re.test(message))?.[1] ?? message

export async function catalogueAction(context: Readonly<RouterContextProvider>, request: Request, url: URL) {
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const key = String(form.get('form') ?? intent)
  const { t } = getInstance(context)
  const api = apiFor(context)
  const schema =
    intent === 'create'
      ? createSchema
      : intent === 'rename'
        ? renameSchema.extend(target.shape)
        : intent === 'move'
          ? moveSchema.extend(target.shape)
          : target
  const submission = parseWithZod(form, { schema })
  if (submission.status !== 'success')
    return data<CatalogueAnswer>({ form: key, reply: submission.reply() }, { status: 400 })
  const value = submission.value as Record<string, unknown> & z.output<typeof target>
  try {
    if (intent === 'create')
      await api.call(c.create, { body: value as unknown as z.input<typeof createSchema> })
    else if (intent === 'rename')
      await api.call(c.rename, {
        params: value,
        body: { names: value.names as z.input<typeof renameSchema>['names'] },
      })
    else if (intent === 'move')
      await api.call(c.move, { params: value, body: { direction: value.direction as 'up' | 'down' } })
    else if (intent === 'delete') await api.call(c.remove, { params: value })
    else if (intent === 'image') {
      const file = fileOf(form, 'file')
      if (!file)
        return data<CatalogueAnswer>(
          { form: key, reply: { error: { file: ['errors.chooseImage'] } } },
          { status: 400 },
        )
      const body = new FormData()
      body.set('file', file, file.name)
      await postMultipart(context, `Admin/catalogue/category/${value.id}/image`, body)
    } else
      return data<CatalogueAnswer>(
        { form: key, notice: t('adminCatalog:errors.unknownIntent') },
        { status: 400 },
      )
  } catch (error) {
    if (
      !(error instanceof ApiCallError) ||
      (error.status !== 400 && error.status !== 409) ||
      typeof error.problem !== 'object'
    )
      throwApiError(error)
    const fieldErrors = Object.fromEntries(
      Object.entries(error.problem.errors ?? {}).map(([field, messages]) => [
        field,
        [
          keyOf(
            `${error.problem && typeof error.problem === 'object' ? error.problem.title : ''} ${messages[0]}`,
          ),
        ],
      ]),
    )
    if (error.status === 409)
      return data<CatalogueAnswer>({ form: key, notice: t('adminCatalog:errors.refused') }, { status: 409 })
    return data<CatalogueAnswer>({ form: key, reply: submission.reply({ fieldErrors }) }, { status: 400 })
  }
  return redirectWithFlash(url.pathname, { kind: 'success', message: t(`adminCatalog:done.${intent}`) })
}
