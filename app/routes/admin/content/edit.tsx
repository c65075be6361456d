import { data, Form } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/edit'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, Button, ButtonGroup } from '~/components/ui/button'
import { Chip } from '~/components/ui/status-chip'
import { FilterSelect } from '~/components/ui/filter-select'
import { TextField, type FieldReply } from '~/components/ui/field'
import { languageNames } from '~/components/shell/language-switcher'
import { adminContentContract as c, contentInputs } from '#server/modules/content/admin-contract.ts'
import { imageExtensions } from '#server/modules/files/rules.ts'
import { itemIdOf, itemLabel, kindForms, kindOf, type KindForm } from './kinds'
import { ContentPreview, type PreviewValue } from './preview'
import { readCategories } from '~/lib/catalogue.server'

// /admin/content/:kind/new and /admin/content/:kind/:id: one item's form, every text in the five
// languages. "Preview" shows the item as the public page will, drawn from what the form holds,
// without saving; "Save" stores it (a new blog post as a draft, published from its list or here).
// An image chosen in the form is uploaded first (docs/product.md §5 checks) and the item points at it.
const languages = Object.keys(languageNames) as Array<keyof typeof languageNames>

export async function loader({ context, url, params }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const kind = kindOf(params)
  const id = params.id ? itemIdOf(params) : null
  const api = apiFor(context)
  try {
    const [item, categories] = await Promise.all([
      id ? api.call(c[kind].get, { params: { id } }) : null,
      readCategories(context),
    ])
    const t = getInstance(context).t
    const areas = Object.fromEntries(categories.data.map((a) => [a.slug, a.name]))
    const initial = item ? flatten(item as Record<string, unknown>) : {}
    const name = item
      ? itemLabel(item as Record<string, unknown>, getInstance(context).language)
      : t(`adminContent:kinds.${kind}.add`)
    const published = kind === 'blogs' && item ? Boolean((item as { published?: boolean }).published) : null
    return {
      kind,
      id,
      initial,
      areas,
      published,
      name,
      title: `${name} – ${t(`adminContent:kinds.${kind}.title`)}`,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type EditAnswer = { reply: FieldReply; preview?: PreviewValue }

export async function action({ request, context, url, params }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const kind = kindOf(params)
  const id = params.id ? itemIdOf(params) : null
  const form = await request.formData()
  const intent = String(form.get('intent') ?? 'save')
  const refused = (errors: Record<string, string[]>) =>
    data<EditAnswer>({ reply: { initialValue: valuesOf(form), error: errorKeys(errors) } }, { status: 400 })
  const image = form.get('imageFile')
  form.delete('imageFile')
  if (image instanceof File && image.size > 0) {
    const upload = new FormData()
    upload.set('file', image, image.name)
    try {
      form.set(
        'imageUrl',
        ((await postMultipart(context, 'Admin/content/images', upload)) as { url: string }).url,
      )
    } catch (error) {
      if (!(error instanceof ApiCallError) || error.status !== 400) throwApiError(error)
      return refused({
        imageUrl: [error.code === 'file_too_large' ? 'errors.fileSize' : 'errors.imageType'],
      })
    }
  }
  const submission = parseWithZod(form, { schema: contentInputs[kind] })
  if (submission.status !== 'success')
    return refused(
      Object.fromEntries(Object.entries(submission.reply().error ?? {}).map(([k, v]) => [k, v ?? []])),
    )
  if (intent === 'preview')
    return data<EditAnswer>({
      reply: { initialValue: valuesOf(form) },
      preview: submission.value as PreviewValue,
    })
  try {
    const api = apiFor(context)
    const body = submission.value as never
    const saved = (
      id ? await api.call(c[kind].update, { params: { id }, body }) : await api.call(c[kind].create, { body })
    ) as { id: number }
    return redirectWithFlash(`/admin/content/${kind}/${saved.id}`, {
      kind: 'success',
      message: getInstance(context).t('adminContent:done.saved'),
    })
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 400 && typeof error.problem === 'object')
      return refused(error.problem.errors ?? {})
    throwApiError(error)
  }
}

export default function ContentEditor({
  loaderData: { kind, id, initial, areas, published, name },
  actionData,
}: Route.ComponentProps) {
  const { t } = useTranslation('adminContent')
  const answer = actionData as EditAnswer | undefined
  const reply: FieldReply = answer?.reply ?? { initialValue: initial }
  const spec = kindForms[kind]
  const value = valueIn(reply)
  const action = id ? `/admin/content/${kind}/${id}` : `/admin/content/${kind}/new`
  return (
    <main id="main" className="page">
      <h1>{name}</h1>
      {published === null ? null : <PublishState kind={kind} id={id} published={published} />}
      <p className="lead">{t(`kinds.${kind}.formLead`)}</p>
      {answer?.preview ? (
        <ContentPreview kind={kind} value={answer.preview} areas={areas} author={value('author')} />
      ) : null}
      <Form
        method="post"
        action={action}
        encType={spec.image ? 'multipart/form-data' : undefined}
        className="form-stack"
        noValidate
      >
        {spec.texts.length ? <TextsByLanguage texts={spec.texts} reply={reply} /> : null}
        <PlainFields plain={spec.plain} reply={reply} areas={areas} />
        {spec.image ? <ImageField reply={reply} /> : null}
        <ButtonGroup>
          <Button name="intent" value="preview">
            {t('preview.button')}
          </Button>
          <Button name="intent" value="save" variant="primary">
            {t('save')}
          </Button>
        </ButtonGroup>
      </Form>
    </main>
  )
}

/** A field's text in the form's reply ('' when none), and its first error. */
const valueIn = (reply: FieldReply) => (field: string) => {
  const v = reply.initialValue?.[field]
  return typeof v === 'string' ? v : ''
}
const errorIn = (reply: FieldReply) => (field: string) => reply.error?.[field]?.[0]

/** A blog post's state, with the button that publishes or withdraws it. */
function PublishState({ kind, id, published }: { kind: string; id: number | null; published: boolean }) {
  const { t } = useTranslation('adminContent')
  return (
    <ButtonGroup label={t('state.label')}>
      <Chip tone={published ? 'success' : 'neutral'}>{t(published ? 'state.published' : 'state.draft')}</Chip>
      <ActionForm
        action={`/admin/content/${kind}`}
        intent={published ? 'unpublish' : 'publish'}
        label={t(published ? 'unpublish' : 'publish')}
        fields={{ id: id ?? 0 }}
        variant={published ? 'secondary' : 'primary'}
      />
    </ButtonGroup>
  )
}

/** The texts, one fieldset per language. */
function TextsByLanguage({ texts, reply }: { texts: KindForm['texts']; reply: FieldReply }) {
  const { t } = useTranslation('adminContent')
  return languages.map((l) => (
    <fieldset key={l} lang={l} className="ui-card">
      <legend>{languageNames[l]}</legend>
      {texts.map((f) => (
        <TextField
          key={f.name}
          ns="adminContent"
          name={`${f.name}.${l}`}
          label={t(`fields.${f.name}`) + (f.optional ? ` ${t('optional')}` : '')}
          multiline={f.long}
          rows={f.name === 'body' ? 10 : 3}
          reply={reply}
        />
      ))}
    </fieldset>
  ))
}

/** The fields written once: a choice (an area, an audience) or a line of text. */
function PlainFields({
  plain,
  reply,
  areas,
}: {
  plain: KindForm['plain']
  reply: FieldReply
  areas: Record<string, string>
}) {
  const { t } = useTranslation('adminContent')
  const value = valueIn(reply)
  const error = errorIn(reply)
  return plain.map((p) =>
    p.type === 'select' ? (
      <div key={p.name}>
        <FilterSelect
          name={p.name}
          label={t(`fields.${p.name}`)}
          value={value(p.name) || undefined}
          options={(p.options ?? Object.keys(areas)).map((o) => ({
            value: o,
            label: p.options ? t(`options.${p.name}.${o}`) : areas[o],
          }))}
        />
        {error(p.name) ? (
          <p className="field-error">{t(error(p.name)!, { defaultValue: error(p.name) })}</p>
        ) : null}
      </div>
    ) : (
      <TextField
        key={p.name}
        ns="adminContent"
        name={p.name}
        label={t(`fields.${p.name}`) + (p.optional ? ` ${t('optional')}` : '')}
        reply={reply}
        type="text"
      />
    ),
  )
}

/** The item's image: the current one, and a file that replaces it. */
function ImageField({ reply }: { reply: FieldReply }) {
  const { t } = useTranslation('adminContent')
  const imageUrl = valueIn(reply)('imageUrl')
  const error = errorIn(reply)('imageUrl')
  return (
    <div className="field">
      <input type="hidden" name="imageUrl" value={imageUrl} />
      {imageUrl ? <img src={imageUrl} alt={t('fields.currentImage')} height="60" /> : null}
      <label htmlFor="field-imageFile">{t(imageUrl ? 'fields.replaceImage' : 'fields.image')}</label>
      <input
        id="field-imageFile"
        type="file"
        name="imageFile"
        accept={imageExtensions.map((e) => `.${e}`).join(',')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'field-imageFile-error' : 'field-imageFile-hint'}
      />
      <p className="muted small" id="field-imageFile-hint">
        {t('fields.imageHint')}
      </p>
      {error ? (
        <p className="field-error" id="field-imageFile-error">
          {t(error, { defaultValue: error })}
        </p>
      ) : null}
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}

/** An item as the form's flat fields: `title.de`, `author`… */
function flatten(item: Record<string, unknown>) {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(item)) {
    if (v && typeof v === 'object')
      for (const [l, s] of Object.entries(v as Record<string, string>)) out[`${k}.${l}`] = s
    else if (typeof v === 'string') out[k] = v
  }
  return out
}

const valuesOf = (form: FormData) =>
  Object.fromEntries(
    [...form.entries()].filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'intent'),
  )

// The API's and the schema's messages, as keys of the adminContent namespace (five languages).
const messageKeys: Array<[RegExp, string]> = [
  [/^is required in this language$/, 'errors.requiredInLanguage'],
  [/^write at least one language$/, 'errors.oneLanguage'],
  [/^is required$/, 'errors.required'],
  [/^must be at most/, 'errors.tooLong'],
  [/^must be an uploaded image$/, 'errors.imageType'],
  [/web address|http/, 'errors.url'],
  [/another logo/, 'errors.nameTaken'],
  [/categories/, 'errors.area'],
  [/lower case/, 'errors.tags'],
  [/^errors\./, ''],
]
function errorKeys(errors: Record<string, string[]>) {
  return Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => {
      const m = messages[0] ?? ''
      const found = messageKeys.find(([re]) => re.test(m))
      return [field, [found ? found[1] || m : 'errors.invalid']]
    }),
  )
}
