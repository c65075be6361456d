import { useEffect, useRef } from 'react'
import { useReplyKey } from '~/components/auth/fields'
import type { FieldReply } from './field'

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

/**
 * The fields of one form: `form` keeps ids unique when a page has several forms. After a reply the
 * values are what it kept (a password it hid comes back empty), before one the defaults.
 */
export function replyForm(
  reply: FieldReply | null | undefined,
  form: string,
  defaults: Record<string, string> = {},
) {
  return (name: string): ReplyFieldMeta => {
    const id = `${form}-${name}`
    const value = reply?.initialValue ? reply.initialValue[name] : defaults[name]
    return {
      id,
      name,
      errorId: `${id}-error`,
      error: reply?.error?.[name]?.[0] ?? undefined,
      defaultValue: typeof value === 'string' ? value : undefined,
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
