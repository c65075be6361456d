import { z } from 'zod'

// The two-factor forms (decision 260), shared by the server's parse and the page's constraints.
// Messages are keys of the `security` namespace.
const code = z
  .string({ error: 'security:errors.codeRequired' })
  .trim()
  .min(6, 'security:errors.codeShape')
  .max(20, 'security:errors.codeShape')

export const secondFactorSchema = z.object({ code })
export const enableSchema = z.object({ code })
export const disableSchema = z.object({ code, password: z.string().max(128, 'errors.tooLong').optional() })
