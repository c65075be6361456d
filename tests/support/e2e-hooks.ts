import type { IncomingMessage, ServerResponse } from 'node:http'
import type { HubsRuntime } from '#server/hubs.ts'

// TEST-ONLY. These routes exist only when the server runs with E2E=1, which loads this module (the Playwright servers, see
// playwright.config.ts and tests/e2e/realtime.spec.ts) and answer only loopback callers. They let an
// end-to-end test make the server push a hub message while no product feature sends one yet
// (notifications and chat land in later issues), and let pages join `e2e:*` groups.
//
//   POST /_e2e/hubs/send  {"hub":"notifications","to":"user","key":7,"target":"countNotify","args":[1]}
//                         to: user (key = user id), group (key = group name) or all
export function createE2eHooks(hubs: HubsRuntime) {
  hubs.allowGroups('chat', 'e2e', () => true)
  hubs.allowGroups('notifications', 'e2e', () => true)
  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!req.url?.startsWith('/_e2e/')) return false
    const address = req.socket.remoteAddress ?? ''
    if (
      !['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address) ||
      req.method !== 'POST' ||
      req.url !== '/_e2e/hubs/send'
    ) {
      req.resume()
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return true
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          hub?: string
          to?: string
          key?: string | number
          target?: string
          args?: unknown[]
        }
        // Untyped on purpose: tests send any target.
        const hub = body.hub === 'chat' || body.hub === 'notifications' ? hubs.server.get(body.hub) : null
        if (!hub || typeof body.target !== 'string') throw new Error('hub and target are required')
        const sender =
          body.to === 'user'
            ? hub.toUser(Number(body.key))
            : body.to === 'group'
              ? hub.toGroup(String(body.key))
              : hub.toAll()
        await sender.send(body.target, ...(Array.isArray(body.args) ? body.args : []))
      })().then(
        () => res.writeHead(202, { 'content-type': 'text/plain' }).end('sent'),
        (error: unknown) =>
          res.writeHead(400, { 'content-type': 'text/plain' }).end(String((error as Error).message)),
      )
    })
    return true
  }
}
