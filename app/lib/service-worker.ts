// The few inline lines that register /sw.js (decision 337) on every page, for visitors too: after
// the page has loaded and the browser is idle, so it never competes with the page for the network
// or the main thread. A browser that refuses (no support, a test that blocks workers) changes nothing.
export const registerServiceWorker = `if ('serviceWorker' in navigator)
  addEventListener('load', () =>
    (self.requestIdleCallback || setTimeout)(() =>
      navigator.serviceWorker.register('/sw.js').catch(() => {}),
    ),
  )`
