import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { locales } from '#server/db/schema.ts'
import { NAME_MAX, type CatalogueKind } from '#server/modules/catalogue/admin-limits.ts'
import type { CatalogueAnswer } from './actions.server'

type Names = Partial<Record<(typeof locales)[number], string>>

/** The first error of a field of this form, translated (API texts that are not keys show as they are). */
function useFieldError(answer: CatalogueAnswer | undefined, form: string, name: string) {
  const { t } = useTranslation('adminCatalog')
  const error = answer?.form === form ? answer.reply?.error?.[name]?.[0] : undefined
  return error ? t(error, { defaultValue: error }) : undefined
}

/**
 * A name in the five languages: English required, the others fall back to it. Ids carry the form's
 * key, since a page holds many of these forms.
 */
export function NamesForm({
  form,
  intent,
  fields,
  names,
  answer,
  submit,
}: {
  form: string
  intent: 'create' | 'rename'
  fields: Record<string, string | number>
  names?: Names
  answer?: CatalogueAnswer
  submit: string
}) {
  const mine = answer?.form === form ? answer : undefined
  return (
    <Form method="post" className="form-stack" data-testid={form}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="form" value={form} />
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {mine?.notice ? <Notice kind="error">{mine.notice}</Notice> : null}
      <div className="row">
        {locales.map((l) => (
          <NameField key={l} form={form} lang={l} value={names?.[l]} answer={mine} />
        ))}
      </div>
      <div>
        <Button variant="primary">{submit}</Button>
      </div>
    </Form>
  )
}

function NameField({
  form,
  lang,
  value,
  answer,
}: {
  form: string
  lang: string
  value?: string
  answer?: CatalogueAnswer
}) {
  const { t } = useTranslation('adminCatalog')
  const name = `names.${lang}`
  const id = `${form}-${lang}`
  const error = useFieldError(answer, form, name)
  const initial = answer?.reply?.initialValue?.names as Names | undefined
  return (
    <div className="field">
      <label htmlFor={id}>{t(`languages.${lang}`)}</label>
      <input
        id={id}
        name={name}
        lang={lang}
        required={lang === 'en'}
        maxLength={NAME_MAX}
        defaultValue={initial?.[lang as keyof Names] ?? value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** Move up, move down and delete for one item; delete only when nothing uses or holds it (the API refuses otherwise too). */
export function ItemActions({
  kind,
  id,
  label,
  canMove = true,
  first,
  last,
  deletable,
  answer,
}: {
  kind: CatalogueKind
  id: number
  label: string
  canMove?: boolean
  first?: boolean
  last?: boolean
  deletable: boolean
  answer?: CatalogueAnswer
}) {
  const { t } = useTranslation('adminCatalog')
  const form = `${kind}-${id}-actions`
  const mine = answer?.form === form ? answer : undefined
  const one = (
    intent: string,
    text: string,
    extra: Record<string, string> = {},
    variant: 'secondary' | 'destructive' = 'secondary',
  ) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="form" value={form} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <Button variant={variant} aria-label={`${text}: ${label}`}>
        {text}
      </Button>
    </Form>
  )
  return (
    <div className="ui-button-group" role="group" aria-label={label}>
      {canMove && !first ? one('move', t('actions.up'), { direction: 'up' }) : null}
      {canMove && !last ? one('move', t('actions.down'), { direction: 'down' }) : null}
      {deletable ? one('delete', t('actions.delete'), {}, 'destructive') : null}
      {mine?.notice ? <Notice kind="error">{mine.notice}</Notice> : null}
    </div>
  )
}

export function Usage({ usage }: { usage: { profiles: number; projects: number } }) {
  const { t } = useTranslation('adminCatalog')
  return (
    <span className="muted small">{t('usage', { profiles: usage.profiles, projects: usage.projects })}</span>
  )
}
