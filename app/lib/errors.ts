import type { TFunction } from '~/lib/translator'

// docs/product.md §8 in one place: what the user is told, and where they are sent, for each API status.
// Loaders and actions call `routeForStatus` (through app/lib/api-errors.server.ts); every route's
// ErrorBoundary renders `noticeFor`.
export interface Notice {
  title: string
  message: string
}

type ErrorBody =
  { detail?: string; errors?: Record<string, string[]> } | { refusal: Refusal } | string | null | undefined

/** Why a page request was refused before any route ran (app/lib/page-guard.server.ts), and its status. */
export type Refusal = 'crossSite' | 'formType' | 'formUnreadable'
export const refusalStatus: Record<Refusal, number> = { crossSite: 403, formType: 415, formUnreadable: 400 }

export function isRefusal(body: unknown): body is { refusal: Refusal } {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.hasOwn(refusalStatus, String((body as { refusal?: unknown }).refusal))
  )
}

/** 400: the server's validation messages joined by ".\n", else its detail, else a string body. */
export function validationMessage(body: ErrorBody, t: TFunction) {
  if (typeof body === 'string' && body.trim()) return body
  if (body && typeof body === 'object' && !isRefusal(body)) {
    const messages = Object.values(body.errors ?? {}).flat()
    if (messages.length) return messages.join('.\n')
    if (body.detail) return body.detail
  }
  return t('errors.fallback')
}

/** The notice for an API status; a 429 says when to try again (its Retry-After, in seconds) where it is known. */
export function noticeFor(status: number, body: ErrorBody, t: TFunction, retryAfter?: number): Notice {
  // A request refused before any route ran (app/lib/page-guard.server.ts) says why, in the catalogue's title.
  if (isRefusal(body)) {
    const title =
      status === 400
        ? t('errors.invalidInfo')
        : status === 403
          ? t('refusals.crossSiteTitle')
          : t('errors.somethingWrong')
    return { title, message: t(`refusals.${body.refusal}`) }
  }
  if (status === 400) return { title: t('errors.invalidInfo'), message: validationMessage(body, t) }
  if (status === 404) return { title: t('notFound.title'), message: t('notFound.body') }
  if (status === 429)
    return {
      title: t('errors.tooMany'),
      message: retryAfter
        ? t('errors.tryAgainIn', { count: Math.ceil(retryAfter / 60) })
        : t('errors.tryAgainLater'),
    }
  if (status === 500) return { title: t('errors.serverError'), message: t('errors.fallback') }
  return { title: t('errors.somethingWrong'), message: t('errors.fallback') }
}

/**
 * What a page does with an API status (docs/product.md §8): 401 and 402 end the session and go home, 403
 * goes to the unauthorized page, 404 to the not-found page (only pages redirect; the API answers
 * its 404 as it is), anything else is a notice.
 */
export type StatusAction =
  { kind: 'logout'; to: '/' } | { kind: 'redirect'; to: string } | { kind: 'notice'; status: number }

export function routeForStatus(status: number): StatusAction {
  if (status === 401 || status === 402) return { kind: 'logout', to: '/' }
  if (status === 403) return { kind: 'redirect', to: '/auth/unauthorized' }
  if (status === 404) return { kind: 'redirect', to: '/auth/not-found' }
  return { kind: 'notice', status }
}
