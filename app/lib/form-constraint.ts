import type { useForm } from '@conform-to/react'

/**
 * The HTML limits of a form's fields (required, maxLength, pattern …) as conform's useForm takes
 * them. A loader computes them with getZodConstraint(schema) and sends them as plain data, so the
 * page's browser code imports no zod schema (issue 38); the action still parses with the schema.
 */
export type FormConstraint = NonNullable<Parameters<typeof useForm>[0]['constraint']>
