import { changePasswordInput, resetPasswordInput, retyped } from '#server/modules/identity/inputs.ts'

// The identity forms parse with the API's own input schemas (server/modules/identity/inputs.ts),
// so each field's rules are written once. A new password is the exception: its form asks for it
// twice, and only the form has the second field.
export const resetPasswordForm = retyped(resetPasswordInput, 'password')
export const changePasswordForm = retyped(changePasswordInput, 'newPassword')

/** The identity service's English field messages, as keys the forms can translate; anything else is shown as it is. */
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
