import type { RouterContextProvider } from 'react-router'
import { getLocale } from '~/middleware/i18next'
import { formatDateTime, formatMoney } from '~/lib/format'

// A contract page's amounts and times, worded by the server (decision 362): the browser's first
// Intl.NumberFormat for a currency and its first Intl.DateTimeFormat cost 7–35 ms each of the main
// thread while the page hydrates (Chromium loads the locale's data then), four times that on a slow
// phone. The server has its formatters made; the components show this text, and word an amount
// themselves only when a caller gives none.

interface Work {
  contract: {
    amountMinor: number
    currency: string
    installments: Array<{ amountMinor: number; currency: string }>
  }
  activity: Array<{ createdAt: string; amount?: { minor: number; currency: string } | null }>
}

/** The contract's price, each installment's amount and each activity's time and amount, in the page's language. */
export function wordedWork<W extends Work>(context: Readonly<RouterContextProvider>, work: W) {
  const lng = getLocale(context)
  const { contract, activity } = work
  return {
    ...work,
    contract: {
      ...contract,
      amountText: formatMoney(contract.amountMinor, contract.currency, lng),
      installments: contract.installments.map((i) => ({
        ...i,
        amountText: formatMoney(i.amountMinor, i.currency, lng),
      })) as Array<W['contract']['installments'][number] & { amountText: string }>,
    },
    activity: activity.map((a) => ({
      ...a,
      atText: formatDateTime(a.createdAt, lng),
      amountText: a.amount ? formatMoney(a.amount.minor, a.amount.currency, lng) : undefined,
    })) as Array<W['activity'][number] & { atText: string; amountText?: string }>,
  }
}
