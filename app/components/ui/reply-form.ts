import { useEffect, useRef } from 'react'
import type { FieldReply } from './field'

// Small forms rendered from the action's conform reply (submission.reply()) with no form library in
// the browser (decision 316): the server validates, the reply keeps what was typed and names each
// field's errors, and these helpers put them where conform's useForm would.

/** The id, error and input props of one field; `form` keeps ids unique when a page has several forms. */
export function replyField(reply: FieldReply | null | undefined, form: string, name: string) {
  const id = `${form}-${name}`
  const errorId = `${id}-error`
  const error = reply?.error?.[name]?.[0] ?? undefined
  const value = reply?.initialValue?.[name]
  return {
    id,
    errorId,
    error,
    props: {
      id,
      name,
      defaultValue: typeof value === 'string' ? value : undefined,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId : undefined,
    },
  }
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
