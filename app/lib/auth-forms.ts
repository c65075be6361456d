import { z } from 'zod'
import { passwordProblem } from '../../server/modules/identity/password-policy.ts'

// One zod schema per identity form, shared by the route's action (server) and its useForm
// (browser). Messages are keys of the `auth` namespace (errors.*); fields show the first one.
const required = 'errors.required'
const email = z
  .string({ error: required })
  .trim()
  .toLowerCase()
  .max(254, 'errors.tooLong')
  .pipe(z.email({ error: 'errors.email' }))
const name = z.string({ error: required }).trim().min(1, required).max(60, 'errors.tooLong')
const phone = z
  .string()
  .trim()
  .max(24, 'errors.tooLong')
  .regex(/^\+?[0-9 ()-]{6,24}$/, 'errors.phone')
const newPassword = (emailField?: string) =>
  z.string({ error: required }).superRefine((value, ctx) => {
    const problem = passwordProblem(value, emailField)
    if (problem) ctx.addIssue({ code: 'custom', message: `errors.password.${problem}` })
  })
export const accountTypes = ['client', 'company', 'freelancer'] as const
export const languageOptions = ['en', 'es', 'de', 'it', 'ru'] as const

export const loginSchema = z.object({
  email,
  password: z.string({ error: required }).max(128, 'errors.tooLong'),
  redirectTo: z.string().optional(),
})

const companyRule = (v: { accountType: string; companyName?: string }, ctx: z.RefinementCtx) => {
  if (v.accountType === 'company' && !v.companyName)
    ctx.addIssue({ code: 'custom', path: ['companyName'], message: 'errors.companyRequired' })
}

export const signupSchema = z
  .object({
    accountType: z.enum(accountTypes, { error: 'errors.accountType' }),
    firstName: name,
    lastName: name,
    companyName: z.string().trim().max(120, 'errors.tooLong').optional(),
    email,
    password: newPassword(),
    phoneNumber: phone.optional(),
    acceptTerms: z.boolean({ error: 'errors.acceptTerms' }).refine((v) => v, 'errors.acceptTerms'),
  })
  .superRefine(companyRule)
  .superRefine((v, ctx) => {
    // The rules that need no other field run on the field itself (shown with the other errors);
    // this one compares with the email, so it runs once the rest is valid.
    if (passwordProblem(v.password, v.email) === 'sameAsEmail')
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'errors.password.sameAsEmail' })
  })

export const completeSignupSchema = z
  .object({
    accountType: z.enum(accountTypes, { error: 'errors.accountType' }),
    firstName: name,
    lastName: name,
    companyName: z.string().trim().max(120, 'errors.tooLong').optional(),
    acceptTerms: z.boolean({ error: 'errors.acceptTerms' }).refine((v) => v, 'errors.acceptTerms'),
  })
  .superRefine(companyRule)

export const emailOnlySchema = z.object({ email })

export const resetSchema = z
  .object({
    token: z.string({ error: required }).min(10, 'errors.tokenInvalid'),
    password: newPassword(),
    confirmPassword: z.string({ error: required }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'errors.mismatch' })

export const profileSchema = z.object({
  intent: z.literal('profile'),
  firstName: name,
  lastName: name,
  phoneNumber: phone.optional(),
  companyName: z.string().trim().max(120, 'errors.tooLong').optional(),
  language: z.enum(languageOptions, { error: 'errors.language' }),
})

export const changePasswordSchema = z
  .object({
    intent: z.literal('password'),
    currentPassword: z.string({ error: required }).max(128, 'errors.tooLong'),
    newPassword: newPassword(),
    confirmPassword: z.string({ error: required }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'errors.mismatch',
  })

export const changeEmailSchema = z.object({
  intent: z.literal('email'),
  newEmail: email,
  password: z.string().max(128, 'errors.tooLong').optional(),
})

/** The API's English field messages, as keys the forms can translate; anything else is shown as it is. */
const knownApiMessages: Record<string, string> = {
  'is not your current password': 'errors.currentPasswordWrong',
  'is already in use': 'errors.emailInUse',
  'is already your address': 'errors.sameEmail',
  'is invalid or expired': 'errors.tokenInvalid',
  'is required for a company': 'errors.companyRequired',
  'is too common; choose one that is harder to guess': 'errors.password.common',
  'must not be your email address': 'errors.password.sameAsEmail',
}
export function apiFieldErrors(errors: Record<string, string[]> | undefined) {
  return Object.fromEntries(
    Object.entries(errors ?? {}).map(([field, messages]) => [
      field,
      messages.map((m) => knownApiMessages[m] ?? m),
    ]),
  )
}
