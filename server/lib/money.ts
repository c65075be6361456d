/**
 * An amount in minor units as a person reads it ("€3,150.00" in English, "3.150,00 €" in German),
 * for what the server words itself: audit reasons and ticket histories. Pages format with
 * app/lib/format.ts. A currency Intl does not know is written as the amount and its code.
 */
export function formatMoney(minor: number, currency: string, locale = 'en') {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100)
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`
  }
}
