import { expect } from '@playwright/test'
import { SHELL_PASSWORD, shellAdminCode } from './shell-server'

/** JSON calls to a shell server's API (setting up what a test starts from), each expected to answer 200, and sign-ins of its accounts. */
export function shellApi(base: () => string) {
  async function call(method: string, apiPath: string, token: string | null, body?: unknown) {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (token) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(`${base()}/api/v1/${apiPath}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    expect(response.status, `${method} ${apiPath}: ${text}`).toBe(200)
    return JSON.parse(text)
  }
  // The SuperAdmin's sign-in answers a challenge; its second step gives the token (decision 260).
  async function login(email: string) {
    const first = await call('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })
    if (!first.challenge) return first.token as string
    return (
      await call('POST', 'identity/login/second-factor', null, {
        challenge: first.challenge,
        code: shellAdminCode(base()),
      })
    ).token as string
  }
  return { call, login }
}
