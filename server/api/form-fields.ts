import { z } from 'zod'

// Pieces of the input schemas that a page's form and the API share. The API reads JSON values; a
// form sends text (conform turns blank fields into undefined, numbers and "on" into their values
// first). Where the form's text means more than that, these read it, so each field's rules stay in
// one schema: money as people type it, a yes/no choice, a blank field that clears a value.

const blank = (value: unknown) => value === undefined || value === ''

/**
 * Money in minor units. JSON gives the whole minor units (1500.50 € is 150050); a form gives the
 * amount as people type it ("1500.50", "1500,5"), which `parse` reads (null when it is no amount).
 * `value` holds the rules of the minor units (whole, positive, at most…).
 */
export function money(
  parse: (text: string) => number | null,
  value: z.ZodNumber,
  messages: { required: string; invalid: string },
) {
  return z
    .union([z.string().transform((text) => parse(text) ?? Number.NaN), z.number()], {
      error: (issue) => (blank(issue.input) ? messages.required : messages.invalid),
    })
    .pipe(value)
    .describe('Minor units (an integer); a form may send the amount as text, such as "1500.50"')
}

/** A yes/no choice: JSON's true or false, or a form's "true", "false" (radio buttons) or "on" (a ticked box). */
export function flag(message: string) {
  return z.union([z.boolean(), z.enum(['true', 'false', 'on']).transform((text) => text !== 'false')], {
    error: message,
  })
}

/**
 * A field whose blank form value clears what is stored (null), while a call that leaves it out
 * keeps it (undefined): a form always sends its fields, and an empty one means "none".
 */
export function clearable<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? null : value), schema.nullable().optional())
}
