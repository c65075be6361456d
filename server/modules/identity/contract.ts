import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import {
  changeEmailInput,
  changePasswordInput,
  closeAccountInput,
  codeInput,
  disableSecondFactorInput,
  emailInput,
  loginInput,
  profileInput,
  registerInput,
  resetPasswordInput,
  secondFactorSignInInput,
  thirdPartySignupInput,
  token,
} from './inputs.ts'

// Identity endpoints of docs/product.md §7. What goes in is in inputs.ts, shared with the identity forms.
const tag = 'Identity'
export { accountTypes, type SignupKind } from './inputs.ts'

export const currentUser = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  email: z.string(),
  status: z.string(),
  phoneNumber: z.string().nullable(),
  roles: z.array(z.number()),
  wengazPoint: z.number(),
  wengazPercentage: z.number(),
  Provider: z.string(),
})
export type CurrentUser = z.infer<typeof currentUser>

/** Who a session is, as every page's top bar shows them: no points or completeness (decision 366). */
export const sessionUser = currentUser.pick({
  id: true,
  firstName: true,
  lastName: true,
  name: true,
  imageUrl: true,
  roles: true,
})
export type SessionUser = z.infer<typeof sessionUser>

export const sessionResult = z.object({ token: z.string(), expiresAt: z.string(), user: currentUser })
export type SessionResult = z.infer<typeof sessionResult>
const message = z.object({ message: z.string() })

export const registerBody = registerInput

export const profileDetails = currentUser.extend({
  accountType: z.string(),
  companyName: z.string().nullable(),
  language: z.string(),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
  pendingEmail: z.string().nullable(),
  createdAt: z.string(),
  permissions: z.array(z.string()),
})

// Two-factor sign-in (decision 260): the password (or provider) was right, a code is still owed.
export const challengeResult = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  expiresAt: z.string(),
})
export const secondFactorStatus = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number(),
  setup: z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }).nullable(),
})

export const thirdPartyResult = z.discriminatedUnion('status', [
  sessionResult.extend({ status: z.literal('signed-in') }),
  challengeResult.extend({ status: z.literal('two-factor-required') }),
  z.object({
    status: z.literal('registration-required'),
    ticket: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    provider: z.string(),
  }),
])

export const identityContract = {
  register: endpoint({
    method: 'POST',
    path: 'identity/register',
    summary: 'Sign up as an individual client, a company or a freelancer; sends the verification mail',
    tag,
    access: 'public',
    body: registerBody,
    response: message.extend({ email: z.string() }),
  }),
  login: endpoint({
    method: 'POST',
    path: 'identity/login',
    summary:
      "Sign in with email and password; returns the login token and this device's token (send it with the next sign-in: decision 091)",
    tag,
    access: 'public',
    body: loginInput,
    response: z.union([
      sessionResult.extend({ deviceToken: z.string() }),
      challengeResult.extend({ deviceToken: z.string() }),
    ]),
  }),
  loginSecondFactor: endpoint({
    method: 'POST',
    path: 'identity/login/second-factor',
    summary:
      'Finish a sign-in that answered twoFactorRequired: the challenge and a code from the authenticator app (or a recovery code)',
    tag,
    access: 'public',
    body: secondFactorSignInInput,
    response: sessionResult,
  }),
  secondFactor: endpoint({
    method: 'GET',
    path: 'identity/two-factor',
    summary: 'Whether two-factor sign-in is on, required, and (only while being set up) the secret to scan',
    tag,
    access: 'user',
    response: secondFactorStatus,
  }),
  secondFactorSetup: endpoint({
    method: 'POST',
    path: 'identity/two-factor/setup',
    summary: 'Start setting up an authenticator app: a new secret, as text and as an SVG QR code',
    tag,
    access: 'user',
    response: secondFactorStatus,
  }),
  secondFactorEnable: endpoint({
    method: 'POST',
    path: 'identity/two-factor/enable',
    summary:
      'Confirm the app with a code: turns two-factor sign-in on, returns ten recovery codes (shown once) and a new session in place of every other',
    tag,
    access: 'user',
    body: codeInput,
    response: sessionResult.extend({ recoveryCodes: z.array(z.string()) }),
  }),
  secondFactorDisable: endpoint({
    method: 'POST',
    path: 'identity/two-factor/disable',
    summary:
      'Turn two-factor sign-in off with the password and a code (not for administrators, who must keep it)',
    tag,
    access: 'user',
    body: disableSecondFactorInput,
    response: secondFactorStatus,
  }),
  logout: endpoint({
    method: 'POST',
    path: 'identity/logout',
    summary: 'End the session that the token names',
    tag,
    access: 'user',
    response: message,
  }),
  verifyEmail: endpoint({
    method: 'GET',
    path: 'identity/verify-email',
    summary: 'Confirm an email address with the token from the mail',
    tag,
    access: 'public',
    query: z.object({ token }),
    response: message,
  }),
  resendVerification: endpoint({
    method: 'POST',
    path: 'identity/resend-verification',
    summary: 'Send the verification mail again (answers the same for any address)',
    tag,
    access: 'public',
    body: emailInput,
    response: message,
  }),
  forgetPassword: endpoint({
    method: 'POST',
    path: 'identity/forget-password',
    summary: 'Mail a password-reset link (answers the same for any address)',
    tag,
    access: 'public',
    body: emailInput,
    response: message,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: 'identity/Reset-Password',
    summary: 'Set a new password with the token from the reset mail; ends every session',
    tag,
    access: 'public',
    body: resetPasswordInput,
    response: message,
  }),
  adminResetPassword: endpoint({
    method: 'POST',
    path: 'identity/{id}/reset-password',
    summary: "SuperAdmin: end the user's sessions and mail them a reset link",
    tag,
    access: 'user',
    params: z.object({ id: recordId }),
    response: message,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: 'identity/change-password',
    summary: 'Change the password; ends every other session and returns a fresh token',
    tag,
    access: 'user',
    body: changePasswordInput,
    response: sessionResult,
  }),
  closeAccount: endpoint({
    method: 'POST',
    path: 'identity/close-account',
    summary:
      "Close the caller's own account: every session ends, and it is erased 14 days later unless they sign in again (409 with `active_contract`, `money_held` or `money_owed` while those stand)",
    tag,
    access: 'user',
    body: closeAccountInput,
    response: z.object({ closingAt: z.string(), erasedAt: z.string() }),
  }),
  changeEmail: endpoint({
    method: 'POST',
    path: 'identity/change-email',
    summary: 'Ask to change the email; a confirmation link goes to the new address',
    tag,
    access: 'user',
    body: changeEmailInput,
    response: message,
  }),
  confirmEmailChange: endpoint({
    method: 'GET',
    path: 'identity/confirm-email',
    summary: 'Confirm the new address with the token from the mail',
    tag,
    access: 'public',
    query: z.object({ token }),
    response: message,
  }),
  profile: endpoint({
    method: 'GET',
    path: 'identity/profile',
    summary: "The current user (the login token's claims, fresh from the database)",
    tag,
    access: 'user',
    response: currentUser,
  }),
  session: endpoint({
    method: 'GET',
    path: 'identity/session',
    summary:
      "Who the login token names, fresh from the database: id, name, picture and roles (what a page's top bar shows; identity/profile adds points and completeness)",
    tag,
    access: 'user',
    response: sessionUser,
  }),
  profileDetails: endpoint({
    method: 'GET',
    path: 'identity/profile-details',
    summary: 'The current user with account settings',
    tag,
    access: 'user',
    response: profileDetails,
  }),
  updateProfile: endpoint({
    method: 'PUT',
    path: 'identity/profile',
    summary: 'Change name, phone, company name and language; returns a fresh token',
    tag,
    access: 'user',
    body: profileInput,
    response: sessionResult,
  }),
  thirdPartyProviders: endpoint({
    method: 'GET',
    path: 'identity/third-part/providers',
    summary: 'OpenID Connect providers configured on this server',
    tag,
    access: 'public',
    response: z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) }),
  }),
  thirdPartyAuthorize: endpoint({
    method: 'POST',
    path: 'identity/third-part/authorize',
    summary: 'Start an OpenID Connect sign-in: the provider URL to send the browser to, and its state',
    tag,
    access: 'public',
    body: z.object({
      provider: z.string({ error: 'is required' }).min(1, 'is required').max(40, 'is unknown'),
      redirectUri: z.url({ error: 'must be an http(s) URL' }),
    }),
    response: z.object({ authorizationUrl: z.string(), state: z.string() }),
  }),
  loginWithThirdPart: endpoint({
    method: 'POST',
    path: 'identity/login-with-third-part',
    summary: 'Finish an OpenID Connect sign-in with the callback URL; signs in, or asks to register',
    tag,
    access: 'public',
    body: z.object({ callbackUrl: z.url({ error: 'must be an http(s) URL' }) }),
    response: thirdPartyResult,
  }),
  registerWithThirdPart: endpoint({
    method: 'POST',
    path: 'identity/register-with-third-part',
    summary:
      'Create an account from a verified OpenID Connect identity (the ticket from login-with-third-part)',
    tag,
    access: 'public',
    body: thirdPartySignupInput,
    response: sessionResult,
  }),
}
