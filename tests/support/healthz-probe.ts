import http from 'node:http'

// Test helper run as its own process (never-blocks.test.ts): asks /healthz on a fresh connection
// every `everyMs` for `forMs`, as a load balancer would, and prints one JSON line with each ask:
// when it was sent (ms since the epoch) and how long its answer took to the last byte. Apart from
// the load generator, so that only the server's delays count.
const [port, forMs, everyMs] = process.argv.slice(2).map(Number)
const times: Array<[number, number]> = []
const failures: string[] = []
const started = performance.now()
while (performance.now() - started < forMs) {
  const sent = performance.now()
  await new Promise<void>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume()
      res.once('end', () => {
        if (res.statusCode !== 200) failures.push(`status ${res.statusCode}`)
        resolve()
      })
    })
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')))
    req.once('error', (error) => {
      failures.push(error.message)
      resolve()
    })
  })
  times.push([performance.timeOrigin + sent, performance.now() - sent])
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (performance.now() - sent))))
}
process.stdout.write(`${JSON.stringify({ times, failures })}\n`)
