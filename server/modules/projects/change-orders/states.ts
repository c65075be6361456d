// A change order's states, its effects' kinds and its limits (decision 319): plain data, so the
// change-order page can import them without the contract's zod (decision 316).
export const changeOrderStates = ['proposed', 'accepted', 'rejected', 'withdrawn'] as const
export type ChangeOrderState = (typeof changeOrderStates)[number]
export const effectKinds = ['add', 'change', 'reduce', 'remove', 'deadline'] as const
export type EffectKind = (typeof effectKinds)[number]
export const changeOrderLimits = { description: 2_000, reason: 1_000, effects: 10, title: 120 }
