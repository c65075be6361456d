// The sandbox's test card numbers (its checkout page lists them; the gateway decides by them).
export const testCards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  confirm: '4000002500003155',
} as const
