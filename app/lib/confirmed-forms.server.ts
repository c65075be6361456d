// Every form that moves money or cannot be undone, by the page kind that handles it and the form's
// intent (decision 310). The actions ask `mustConfirm` with these names, and
// tests/integration/confirm-steps.test.ts posts each one without its confirmation, so a form added
// here without a test of its bare POST fails that test's type check and its run.
export const confirmedForms = {
  /** The project pages' one-button moves (simpleIntent). */
  project: ['installment-approve', 'cancelled', 'delete', 'withdraw'],
  /** The refund forms of the client's project page and the freelancer's contract page. */
  refund: ['refund-request', 'refund-accept', 'refund-dispute'],
  /** Approving a timesheet week, which makes it an installment the client owes (decision 324). */
  timesheet: ['approve'],
  /** Paying installments (the pay page). */
  pay: ['pay'],
  /** Withdrawing available money (/payouts). */
  payout: ['withdraw'],
  /** Where payouts go (/peyment-details): adding a method of a kind, changing one, making it the default, removing it. */
  paymentMethod: ['bank', 'paypal', 'update', 'default', 'delete'],
  /** An admin's irreversible actions on an account. */
  adminUser: ['delete', 'suspend'],
  /** Support's decision of a dispute, which moves the money held. */
  adminDispute: ['decide'],
  /** Deleting a page, post or entry of the site's content. */
  adminContent: ['delete'],
  /** Deciding a verification request, which deletes its document (decision 332). */
  adminVerification: ['approve', 'reject'],
  /** A client's cancelling of a request for help hiring: a closed request takes no change (decision 338). */
  hiring: ['cancel'],
  /** Support's closing of a hiring request, for good (decision 338). */
  adminHiring: ['close'],
} as const

export type ConfirmedPage = keyof typeof confirmedForms
export type ConfirmedIntent<P extends ConfirmedPage> = (typeof confirmedForms)[P][number]

/** Whether this page's form of this intent is one that acts only from its confirmation step. */
export const isGuarded = (page: ConfirmedPage, intent: string) =>
  (confirmedForms[page] as readonly string[]).includes(intent)
