// The few inline lines that register /sw.js (decision 337) on every page, for visitors too: after
// the page has loaded and the browser is idle, so it never competes with the page for the network
// or the main thread; within 5 s at the latest, since a page that keeps the browser busy (live
// updates, a long list) may never give it an idle moment. A browser that refuses (no support, a
// test that blocks workers) changes nothing.
export const registerServiceWorker = `if ('serviceWorker' in navigator)
  addEventListener('load', () => {
    const register = () => navigator.serviceWorker.register('/sw.js').catch(() => {})
    if (self.requestIdleCallback) requestIdleCallback(register, { timeout: 5000 })
    else setTimeout(register, 1000)
  })`
