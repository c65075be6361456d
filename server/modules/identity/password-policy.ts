// Pure (no server imports): the sign-up, reset and change forms check the same policy in the browser.
// The policy a person reads before typing (the sign-up, reset and change forms show it):
// 10 to 128 characters, not one of the commonly used passwords, not the email address.
export const PASSWORD_MIN = 10
export const PASSWORD_MAX = 128

const common = new Set(
  `123456 123456789 12345678 1234567890 password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword
  qwerty qwerty123 qwertyuiop qwerty12345 1q2w3e4r5t 1qaz2wsx3edc qazwsxedc 1q2w3e4r5t6y zaq12wsx asdfghjkl asdfghjkl1
  111111 000000 1111111111 0000000000 1234512345 0123456789 9876543210 abc123 abcdef abcd1234 abcdefghij abc1234567
  iloveyou iloveyou1 iloveyou123 letmein letmein123 welcome welcome1 welcome123 welcome2024 welcome2025 welcome2026
  admin admin123 admin12345 administrator changeme changeme123 trustno1 sunshine sunshine1 princess football football1
  baseball dragon dragon123 monkey monkey123 master master123 shadow superman batman starwars whatever freedom
  passwordpassword 11111111111 aaaaaaaaaa 1234567891 12345678910 qwertyqwerty password2024 password2025 password2026
  secret123 secretpassword mypassword mypassword1 letmein2024 summer2024 summer2025 winter2024 winter2025 spring2025
  autumn2025 engineer123 engineering architect1 construction workneer workneer123 workneer2025 freelancer freelancer1
  contrasena contraseña passwort passwort1 passwort123 parola123 password01 motdepasse azertyuiop azerty123
  1234qwer qwer1234 asdf1234 zxcvbnm zxcvbnm123 q1w2e3r4t5 1qazxsw2 7777777777 5555555555 1212121212 123123123123
  йцукенгшщз пароль пароль123 qwertyuiop123 123qweasdzxc`
    .split(/\s+/)
    .filter(Boolean),
)

export type PasswordProblem = 'tooShort' | 'tooLong' | 'common' | 'sameAsEmail'

export function passwordProblem(password: string, email?: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return 'tooShort'
  if (password.length > PASSWORD_MAX) return 'tooLong'
  const lower = password.toLowerCase()
  if (common.has(lower) || /^(.)\1+$/.test(password)) return 'common'
  if (email && lower === email.toLowerCase()) return 'sameAsEmail'
  return null
}
