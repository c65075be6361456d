import { createContext, useContext, useLayoutEffect } from 'react'

// A live update reloads the page's loaders (RealtimeProvider), and React Router's revalidation drops
// the action's reply: a confirmation step or a form's errors would vanish under the reader's finger.
// A component showing such a reply holds live reloads while it is mounted; one that came meanwhile
// runs once the last hold is released.
export const LiveReloadHold = createContext<(() => () => void) | null>(null)

/** While `active` (a reply is on screen), live updates wait instead of reloading the page's data. */
export function useHoldLiveReloads(active = true) {
  const hold = useContext(LiveReloadHold)
  // Taken as the reply is committed, not after paint: a reload due in between would drop it (decision 352).
  useLayoutEffect(() => (active && hold ? hold() : undefined), [active, hold])
}
