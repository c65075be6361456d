// The newsletter's rules that the browser needs too, without zod (kept out of the page's bundle).
/** SPEC §5: text, at sign, text, dot, text. */
export const newsletterAddress = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
export const SUBSCRIBED_REPLY = 'Subscribed Successfully!'
export const ALREADY_SUBSCRIBED_REPLY = 'You are already subscribed.'
export const UNSUBSCRIBED_REPLY = 'Unsubscribed Successfully.'
