/**
 * When a live update reloads the page's data (RealtimeProvider): once shortly after a burst of
 * messages, and never while a hold is taken (an action's reply is on screen, app/components/live-reloads.ts).
 * A reload that comes during a hold runs once the last hold is released.
 *
 * The hold is checked again when the delay ends, not only when the message comes (decision 352):
 * a reply that appears within the delay (a confirmation step answering the form's POST, or one
 * holder handing over to the next) used to be reloaded away, and the test clicked a step that was gone.
 */
export function createReloadGate(reload: () => void, delayMs = 250) {
  let holds = 0
  let waiting = false
  let timer: ReturnType<typeof setTimeout> | null = null
  const schedule = () => {
    if (holds) {
      waiting = true
      return
    }
    timer ??= setTimeout(() => {
      timer = null
      if (holds) waiting = true
      else reload()
    }, delayMs)
  }
  const hold = () => {
    holds++
    let released = false
    return () => {
      if (released) return
      released = true
      if (--holds || !waiting) return
      waiting = false
      schedule()
    }
  }
  const cancel = () => {
    if (timer) clearTimeout(timer)
    timer = null
  }
  return { schedule, hold, cancel }
}
