import { z } from 'zod'

// Pieces of the input schemas that a page's form and the API share. The API reads JSON values; a
// form sends text (conform turns blank fields into undefined, numbers and "on" into their values
// first). Where the form's text means more than that, these read it, so each field's rules stay in
// one schema: money as people type it, a yes/no choice, a blank field that clears a value.

const blank = (value: unknown) => value === undefined || value === ''

/**
 * Money in minor units. JSON gives the whole minor units (1500.50 € is 150050); a form gives the
 * amount as people type it ("1500.50", "1500,5"), which `parse` reads (null when it is no amount).
 * `rules` adds the limits of the minor units (positive, at most…). The API documents the integer.
 */
export function money(
  parse: (text: string) => number | null,
  messages: { required: string; invalid: string },
  rules: (minor: z.ZodNumber) => z.ZodNumber = (minor) => minor,
) {
  const minor = z
    .number({ error: (issue) => (blank(issue.input) ? messages.required : messages.invalid) })
    .int(messages.invalid)
  return z.preprocess(
    (value) => (value === '' ? undefined : typeof value === 'string' ? (parse(value) ?? Number.NaN) : value),
    rules(minor),
  )
}

/** A yes/no choice: JSON's true or false, or a form's "true", "false" (radio buttons) or "on" (a ticked box). */
export function flag(message: string) {
  const words: Record<string, boolean> = { true: true, on: true, false: false }
  return z.preprocess(
    (value) => (typeof value === 'string' && Object.hasOwn(words, value) ? words[value] : value),
    z.boolean({ error: message }),
  )
}

/**
 * A field whose blank form value clears what is stored (null), while a call that leaves it out
 * keeps it (undefined): a form always sends its fields, and an empty one means "none".
 */
export function clearable<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? null : value), schema.nullable().optional())
}
