// Workneer's service worker (decision 337). It is not part of any page's bundle: the root document
// registers it once the page has loaded and the browser is idle. It keeps one page, /offline.html,
// shown when a page cannot be reached; every other request goes to the network as if it were not
// here. It shows the push messages the server sends and opens their page on a click.
const CACHE = 'workneer-offline-v1'
const OFFLINE = '/offline.html'

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE, { cache: 'reload' })))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  )
})

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate' || event.request.method !== 'GET') return
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)))
})

self.addEventListener('push', (event) => {
  let message = {}
  try {
    message = event.data ? event.data.json() : {}
  } catch {
    // A message that is not ours to read still shows, as the browser requires.
  }
  event.waitUntil(
    self.registration.showNotification(message.title || 'Workneer', {
      body: message.body || '',
      tag: message.tag,
      icon: '/icons/icon-192.png',
      data: { url: message.url || '/notifications' },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL(event.notification.data?.url || '/notifications', self.location.origin)
  if (url.origin !== self.location.origin) return
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url.href)
      if (open) return open.focus()
      const ours = windows.find((w) => 'navigate' in w)
      return ours ? ours.navigate(url.href).then((w) => w && w.focus()) : self.clients.openWindow(url.href)
    }),
  )
})
