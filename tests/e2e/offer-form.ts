import type { Locator } from '@playwright/test'

/** A direct offer as the client types it: a fixed price in installments (decision 342). */
export interface TypedOffer {
  title: string
  description: string
  subcategoryId: number
  price: string
  days: string
  installments: { title: string; amount: string; due?: string }[]
  message?: string
}

/** Fills the offer form (`#offer`) the way a client does, field by field, by their labels. */
export async function fillOffer(form: Locator, offer: TypedOffer) {
  await form.getByLabel('Title').fill(offer.title)
  await form.getByLabel('Description').fill(offer.description)
  await form.getByLabel('Subcategory').selectOption(String(offer.subcategoryId))
  await form.getByLabel('Price (or rate per hour)').fill(offer.price)
  await form.getByLabel('Duration in days').fill(offer.days)
  for (const [n, i] of offer.installments.entries()) {
    await form.getByLabel(`Installment ${n + 1}`).fill(i.title)
    await form.getByLabel(`Amount ${n + 1}`).fill(i.amount)
    if (i.due) await form.getByLabel(`Due date ${n + 1}`).fill(i.due)
  }
  if (offer.message) await form.getByLabel('Your message (optional)').fill(offer.message)
}
