import type { TFunction } from 'i18next'

// SPEC §8 in one place: what the user is told for each API status.
export interface Notice {
  title: string
  message: string
}

type ErrorBody = { detail?: string; errors?: Record<string, string[]> } | string | null | undefined

/** 400: the server's validation messages joined by ".\n", else its detail, else a string body. */
export function validationMessage(body: ErrorBody, t: TFunction) {
  if (typeof body === 'string' && body.trim()) return body
  if (body && typeof body === 'object') {
    const messages = Object.values(body.errors ?? {}).flat()
    if (messages.length) return messages.join('.\n')
    if (body.detail) return body.detail
  }
  return t('errors.fallback')
}

export function noticeFor(status: number, body: ErrorBody, t: TFunction): Notice {
  if (status === 400) return { title: t('errors.invalidInfo'), message: validationMessage(body, t) }
  if (status === 500) return { title: t('errors.serverError'), message: t('errors.fallback') }
  return { title: t('errors.somethingWrong'), message: t('errors.fallback') }
}
