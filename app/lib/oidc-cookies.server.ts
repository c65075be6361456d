import { parseCookie, stringifySetCookie } from 'cookie'

// Short-lived cookies of the OpenID Connect round trip: the state the browser must bring back
// (binding the callback to this browser), and the registration ticket for a first-time sign-up.
const STATE = 'oidc_state'
const TICKET = 'oidc_ticket'
const base = { path: '/auth', httpOnly: true, sameSite: 'lax' as const }

export function stateCookie(state: string, redirectTo: string, secure: boolean) {
  return stringifySetCookie({
    name: STATE,
    value: Buffer.from(JSON.stringify({ state, redirectTo })).toString('base64url'),
    maxAge: 600,
    secure,
    ...base,
  })
}

export function ticketCookie(
  ticket: { ticket: string; email: string; firstName: string; lastName: string; provider: string },
  secure: boolean,
) {
  return stringifySetCookie({
    name: TICKET,
    value: Buffer.from(JSON.stringify(ticket)).toString('base64url'),
    maxAge: 1800,
    secure,
    ...base,
  })
}

export const clearStateCookie = () => stringifySetCookie({ name: STATE, value: '', maxAge: 0, ...base })
export const clearTicketCookie = () => stringifySetCookie({ name: TICKET, value: '', maxAge: 0, ...base })

function read<T>(request: Request, name: string): T | null {
  const raw = parseCookie(request.headers.get('cookie') ?? '')[name]
  if (!raw) return null
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as T
  } catch {
    return null
  }
}

export const readState = (request: Request) => read<{ state: string; redirectTo: string }>(request, STATE)
export const readTicket = (request: Request) =>
  read<{ ticket: string; email: string; firstName: string; lastName: string; provider: string }>(
    request,
    TICKET,
  )
