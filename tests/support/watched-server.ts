import readline from 'node:readline'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { startServer } from '#server/index.ts'

// Test helper run as its own process (never-blocks.test.ts): the real server (startServer, without
// the web app, configured from the environment) with a watch on its event loop. A tick every 10 ms
// notes when it ran, how late, and how much CPU the main thread spent since the last one (not
// the GC's or the thread pool's helpers, which run beside the loop without holding it). Late with
// the CPU busy means the server's own work held the loop; late with the CPU idle means the machine
// did not run it (other processes on a shared machine). Prints one JSON line `{"ready":port}` once
// it serves, and `{"ticks":[[at, lateMs, cpuMs], …]}` (`at` in ms since the epoch) when stdin says `report`.
const TICK_MS = 10
const config = loadConfig()
const running = await startServer(config, createLogger(config.logLevel), { webApp: false })
const ticks: Array<[number, number, number]> = []
let last = performance.now()
let cpu = process.threadCpuUsage()
setInterval(() => {
  const now = performance.now()
  const used = process.threadCpuUsage(cpu)
  const lateMs = now - last - TICK_MS
  ticks.push([performance.timeOrigin + last, Math.max(0, lateMs), (used.user + used.system) / 1000])
  last = now
  cpu = process.threadCpuUsage()
}, TICK_MS)
process.stdout.write(`${JSON.stringify({ ready: running.port })}\n`)
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'report') process.stdout.write(`${JSON.stringify({ ticks })}\n`)
})
const stop = () => void running.close().then(() => process.exit(0))
process.stdin.on('end', stop)
process.once('SIGTERM', stop)
