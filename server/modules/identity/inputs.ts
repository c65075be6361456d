import { z } from 'zod'
import { clearable } from '#server/api/form-fields.ts'
import { passwordProblem } from './password-policy.ts'
import { accountTypes, languages, type SignupKind } from './choices.ts'

// What a person gives the identity module: the bodies of its endpoints and, the same schemas, its
// forms (sign-up, login, password reset and change, email change, account settings, two-factor
// codes). Messages are keys of the `auth` and `security` namespaces: the page shows them in the
// reader's language and the API words them for its caller (server/api/messages.ts).

const problem = (key: string) => `auth:errors.${key}`
const required = problem('required')

export { accountTypes, languages, type SignupKind }

export const email = z
  .string({ error: required })
  .trim()
  .toLowerCase()
  .max(254, problem('tooLong'))
  .pipe(z.email({ error: problem('email') }))
/** A password being checked (sign-in, confirming a change): the policy is not asked of it. */
const password = z.string({ error: required }).min(1, required).max(128, problem('tooLong'))
/** A new password, held to the policy of password-policy.ts (the email rule runs on the whole form). */
const newPassword = z.string({ error: required }).superRefine((value, ctx) => {
  const broken = passwordProblem(value)
  if (broken) ctx.addIssue({ code: 'custom', message: problem(`password.${broken}`) })
})
const name = z.string({ error: required }).trim().min(1, required).max(60, problem('tooLong'))
const phone = z
  .string()
  .trim()
  .max(24, problem('tooLong'))
  .regex(/^\+?[0-9 ()-]{6,24}$/, problem('phone'))
const companyName = z.string().trim().max(120, problem('tooLong'))
const language = z.enum(languages, { error: problem('language') })
const accountType = z.enum(accountTypes, { error: problem('accountType') })
/** The terms' checkbox: ticked ("on" from a form) is the only answer taken. */
const acceptTerms = z.literal(true, { error: problem('acceptTerms') })
export const token = z
  .string({ error: problem('tokenInvalid') })
  .trim()
  .min(10, problem('tokenInvalid'))
  .max(200, problem('tokenInvalid'))

const companyNamed = (v: { accountType?: string; companyName?: string }, ctx: z.RefinementCtx) => {
  if (v.accountType === 'company' && !v.companyName)
    ctx.addIssue({ code: 'custom', path: ['companyName'], message: problem('companyRequired') })
}

export const registerInput = z
  .object({
    accountType,
    firstName: name,
    lastName: name,
    companyName: companyName.optional(),
    email,
    password: newPassword,
    phoneNumber: phone.optional(),
    language: language.optional(),
    acceptTerms,
  })
  .superRefine(companyNamed)
  .superRefine((v, ctx) => {
    // The policy's one rule that needs another field.
    if (typeof v.password === 'string' && passwordProblem(v.password, v.email) === 'sameAsEmail')
      ctx.addIssue({ code: 'custom', path: ['password'], message: problem('password.sameAsEmail') })
  })

/** Finishing a sign-up that began at an OpenID Connect provider (the ticket names the verified identity). */
export const thirdPartySignupInput = z
  .object({
    ticket: token,
    accountType,
    firstName: name,
    lastName: name,
    companyName: companyName.optional(),
    language: language.optional(),
    acceptTerms,
  })
  .superRefine(companyNamed)

export const loginInput = z.object({
  email,
  password,
  deviceToken: z.string().max(200, problem('tokenInvalid')).optional(),
})
export const emailInput = z.object({ email })
export const resetPasswordInput = z.object({ token, password: newPassword })
export const changePasswordInput = z.object({ currentPassword: password, newPassword })
/** Closing one's own account: the password, and a code when two-factor sign-in is on (decision 330). */
export const closeAccountInput = z.object({
  password: z.string().max(128, problem('tooLong')).default(''),
  code: z.string().trim().max(32, problem('tooLong')).optional(),
})
/** An account without a password (signed up through a provider) confirms the change by its session alone. */
export const changeEmailInput = z.object({
  newEmail: email,
  password: z.string().max(128, problem('tooLong')).default(''),
})
/** Account settings; a blank phone or company name clears it (a call that leaves it out keeps it). */
export const profileInput = z.object({
  firstName: name,
  lastName: name,
  phoneNumber: clearable(phone),
  companyName: clearable(companyName),
  language,
})

/**
 * A form that asks for the new password twice: the second must match. Only the form asks (the API
 * takes the password once), so this adds the field to the API's schema for the page.
 */
export const retyped = <S extends z.ZodObject>(schema: S, field: keyof z.output<S> & string) =>
  schema
    .extend({ confirmPassword: z.string({ error: required }) })
    .refine((v) => (v as Record<string, unknown>)[field] === v.confirmPassword, {
      path: ['confirmPassword'],
      message: problem('mismatch'),
    }) as unknown as z.ZodType<
    z.output<S> & { confirmPassword: string },
    z.input<S> & { confirmPassword: string }
  >

/** A code from the authenticator app (six digits) or a recovery code. */
const code = z
  .string({ error: 'security:errors.codeRequired' })
  .trim()
  .min(6, 'security:errors.codeShape')
  .max(20, 'security:errors.codeShape')
export const codeInput = z.object({ code })
export const disableSecondFactorInput = z.object({
  password: z.string().max(128, problem('tooLong')).optional(),
  code,
})
/** Finishing a sign-in with a code: the page holds the challenge, the person types the code (codeInput). */
export const secondFactorSignInInput = codeInput.extend({
  challenge: z.string({ error: required }).min(1, required).max(300, problem('tokenInvalid')),
})
