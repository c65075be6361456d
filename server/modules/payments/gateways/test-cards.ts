// The sandbox's test card numbers (its checkout page lists them; the gateway decides by them).
export const testCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  confirm: '4000002500003155',
} as const

// The sandbox's payout destinations that fail (decision 186): any other bank account or PayPal
// address is paid at once. Both pass Payment Details' checks, so a freelancer can add them.
export const failingPayoutDestinations = {
  iban: 'GB82WEST12345698765432',
  paypal: 'payout-fails@example.com',
} as const
