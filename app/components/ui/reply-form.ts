import { useEffect, useRef } from 'react'
import type { FieldReply } from './field'
import { useHoldLiveReloads } from '../live-reloads'
import { constraintOf, type FormConstraint } from '~/lib/form-constraint'

// Small forms rendered from the action's conform reply (submission.reply()) with no form library in
// the browser (decision 316): the server validates, the reply keeps what was typed and names each
// field's errors, and these helpers put them where conform's useForm would.

/** What one field shows: its ids, its first error, and its value (the reply's, else the default). */
export interface ReplyFieldMeta {
  id: string
  name: string
  errorId: string
  error?: string
  defaultValue?: string
}

/** The value at a field's name in a form's values, nested names included (`installments[0].title`). */
export function valueAt(values: Record<string, unknown> | null | undefined, name: string): unknown {
  let value: unknown = values
  for (const part of name.split(/[.[\]]+/).filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

/** A value as a form's control holds it: text, or texts for a field of several values (a tag input). */
export function asTexts(value: unknown): string[] {
  if (value === null || value === undefined) return []
  return Array.isArray(value) ? value.map((v) => String(v ?? '')) : [String(value)]
}

/**
 * The fields of one form: `form` keeps ids unique when a page has several forms. After a reply the
 * values are what it kept (a password it hid comes back empty), before one the defaults.
 */
export function replyForm(
  reply: FieldReply | null | undefined,
  form: string,
  defaults: Record<string, unknown> = {},
) {
  const values = reply?.initialValue ? reply.initialValue : defaults
  return (name: string): ReplyFieldMeta => {
    const id = `${form}-${name}`
    const value = valueAt(values, name)
    return {
      id,
      name,
      errorId: `${id}-error`,
      error: reply?.error?.[name]?.[0] ?? undefined,
      defaultValue: typeof value === 'string' || typeof value === 'number' ? String(value) : undefined,
    }
  }
}

/** The props of a field's input, select or textarea. */
export function inputProps(field: ReplyFieldMeta) {
  return {
    id: field.id,
    name: field.name,
    defaultValue: field.defaultValue,
    'aria-invalid': field.error ? true : undefined,
    'aria-describedby': field.error ? field.errorId : undefined,
  }
}

/** The form-level messages of a reply (conform keeps them under the empty name). */
export const formErrors = (reply: FieldReply | null | undefined) =>
  reply?.error?.['']?.filter(Boolean) ?? undefined

/**
 * A key for the form that changes with each new reply, so the inputs take the values the reply
 * kept (the passwords it hid are emptied, a reset form comes back empty), as after a full reload.
 */
export function useReplyKey(reply: unknown) {
  useHoldLiveReloads(reply != null)
  const last = useRef<{ reply: unknown; n: number }>({ reply, n: 0 })
  if (last.current.reply !== reply) last.current = { reply, n: last.current.n + 1 }
  return `reply-${last.current.n}`
}

/** A ref for the form: after a reply with errors, the first field it marks wrong takes the focus, as with conform. */
export function useFirstErrorFocus(reply: FieldReply | null | undefined) {
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (!Object.values(reply?.error ?? {}).some((e) => e?.length)) return
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [reply])
  return form
}

/** What a reply-rendered form needs: its ref and key, its fields, and its form-level messages. */
export function useReplyForm(
  reply: FieldReply | null | undefined,
  form: string,
  defaults?: Record<string, string>,
) {
  const ref = useFirstErrorFocus(reply)
  const key = useReplyKey(reply)
  return { ref, key, field: replyForm(reply, form, defaults), errors: formErrors(reply) }
}

/** A field of a larger form (the project and proposal forms): all its errors, its raw value, its HTML limits. */
export type LimitedField = ReplyFieldMeta & {
  errors?: string[]
  value: unknown
  limits: ReturnType<typeof constraintOf>
}

/**
 * Every field of a form by its name, nested ones too (`fields['installments[0].title']`): what the
 * reply kept (else the default), its errors, and the limits the loader sent from the schema.
 */
export function replyFields(
  reply: FieldReply | null | undefined,
  form: string,
  defaults: Record<string, unknown> = {},
  constraint?: FormConstraint,
) {
  const values = reply?.initialValue ?? defaults
  const byName = replyForm(reply, form, defaults)
  return new Proxy({} as Record<string, LimitedField>, {
    get: (_, name) =>
      typeof name === 'string'
        ? {
            ...byName(name),
            errors: reply?.error?.[name] ?? undefined,
            value: valueAt(values, name),
            limits: constraintOf(constraint, name),
          }
        : undefined,
  })
}

/** A control's name, id, value, limits and the aria of its error, as conform's getInputProps gave them. */
export const controlProps = (field: LimitedField) => ({ ...inputProps(field), ...field.limits })
