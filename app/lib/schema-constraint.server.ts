import { getZodConstraint } from '@conform-to/zod/v4'
import type { z } from 'zod'
import type { FormConstraint } from './form-constraint'

// A form's HTML limits from its zod schema. conform's getZodConstraint reads string lengths from
// zod's `_zod.bag`, which zod 4.6 no longer fills, so its answer has `required` and patterns but no
// lengths; this adds each string's minLength and maxLength from the schema's own checks.

type Def = {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  checks?: Array<{ _zod: { def: { check: string; minimum?: number; maximum?: number } } }>
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def

function lengths(schema: z.ZodType, name: string, out: FormConstraint) {
  const def = defOf(schema)
  if (def.type === 'object' && def.shape)
    for (const [key, field] of Object.entries(def.shape)) lengths(field, name ? `${name}.${key}` : key, out)
  else if (def.type === 'array' && def.element) lengths(def.element, `${name}[]`, out)
  else if (def.innerType) lengths(def.innerType, name, out)
  else if (def.type === 'pipe' && def.in) lengths(def.in, name, out)
  else if (def.type === 'string' && name)
    for (const c of def.checks ?? []) {
      const check = c._zod.def
      const limits = (out[name] ??= {})
      if (check.check === 'min_length') limits.minLength = check.minimum
      if (check.check === 'max_length') limits.maxLength = check.maximum
    }
}

/** The constraint a loader sends with its form: conform's, with the schema's string lengths. */
export function schemaConstraint(schema: z.ZodType): FormConstraint {
  const out = getZodConstraint(schema) as FormConstraint
  lengths(schema, '', out)
  return out
}
