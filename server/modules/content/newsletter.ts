// The newsletter's rules that the browser needs too, without zod (kept out of the page's bundle).
/** docs/product.md §5: text, at sign, text, dot, text. */
export const newsletterAddress = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** The reply to every well-formed subscription, whatever the address's state (decision 092). */
export const SUBSCRIBED_REPLY = 'Subscribed Successfully!'
export const CONFIRMED_REPLY = 'Subscription Confirmed.'
export const UNSUBSCRIBED_REPLY = 'Unsubscribed Successfully.'
/** The secret of a mailed newsletter link (confirm, unsubscribe). */
export const newsletterToken = /^[\w-]{20,100}$/
