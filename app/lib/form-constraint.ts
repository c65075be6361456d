import type { useForm } from '@conform-to/react'

/**
 * The HTML limits of a form's fields (required, maxLength, pattern …) as conform's useForm takes
 * them. A loader computes them with getZodConstraint(schema) and sends them as plain data, so the
 * page's browser code imports no zod schema (issue 38); the action still parses with the schema.
 */
export type FormConstraint = NonNullable<Parameters<typeof useForm>[0]['constraint']>

/**
 * A field's HTML limits, as conform's getInputProps wrote them: the constraint names a list's fields
 * once (`installments[].title`) for every row (`installments[2].title`).
 */
export function constraintOf(constraint: FormConstraint | undefined, name: string) {
  const c = constraint?.[name.replace(/\[\d+\]/g, '[]')]
  return {
    required: c?.required,
    minLength: c?.minLength,
    maxLength: c?.maxLength,
    min: c?.min,
    max: c?.max,
    step: c?.step,
    pattern: c?.pattern,
  }
}
