import * as z from 'zod/mini'

// The contact form's schema, shared by the action (server) and useForm (browser). zod/mini keeps
// the page's JavaScript small. Messages are keys of the `content` namespace; each field shows its
// first one (docs/product.md §5). The API checks the same limits (server/modules/content/contract.ts).
const e = (key: string) => `contact.errors.${key}`
const text = (required: string, min: number, short: string, max: number, long: string) =>
  z.string({ error: e(required) }).check(z.trim(), z.minLength(min, e(short)), z.maxLength(max, e(long)))

export const contactSchema = z.object({
  name: text('nameRequired', 2, 'nameShort', 100, 'nameLong'),
  email: z
    .string({ error: e('emailRequired') })
    .check(
      z.trim(),
      z.maxLength(254, e('emailInvalid')),
      z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, e('emailInvalid')),
    ),
  subject: text('subjectRequired', 3, 'subjectShort', 150, 'subjectLong'),
  message: text('messageRequired', 10, 'messageShort', 5000, 'messageLong'),
})
