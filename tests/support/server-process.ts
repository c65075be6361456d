import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

// A Workneer server as its own process (server/boot.js on the built app), for tests whose subject
// is the process itself: what it answers over a socket, whether it survives, how it starts. One
// helper for every test that starts one, so they all wait for readiness and stop it the same way.
export const root = path.resolve(import.meta.dirname, '../..')

/**
 * The ports the system gives the local end of outgoing connections (Linux; 32768–60999 by default).
 * A port from there that is free now can be taken a moment later by any connection on the machine (a
 * fetch, a database pool, a browser), and a server then cannot listen on it: CI once failed with
 * "port 33954 is already in use" between the check and the start.
 */
export function outgoingPorts(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number)
    if (low > 0 && high >= low) return [low, high]
  } catch {
    // not Linux: the common default
  }
  return [32768, 60999]
}
const LOWEST = 10_000

/** Whether a server can listen on `port` now. */
async function listenable(port: number) {
  const probe = net.createServer()
  const ok = await new Promise<boolean>((resolve) =>
    probe.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true)),
  )
  if (ok) await new Promise<void>((resolve) => probe.close(() => resolve()))
  return ok
}

/** A port nothing listens on now, below the outgoing connections' range (any free one if that range leaves too little below it). */
async function unusedPort() {
  const below = outgoingPorts()[0] - LOWEST
  if (below < 1000) {
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const { port } = probe.address() as net.AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    return port
  }
  // At random, so that test processes side by side rarely try the same one.
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * below)
    if (await listenable(port)) return port
  }
}

// Every port this process has handed out, kept for as long as it runs: a test that kills its server
// and starts it again on the same port leaves that port free for a moment, and a test running beside
// it (crash-restart's are concurrent) was once given it then. Its own server could not listen, and
// the sibling's restarted server answered its readiness check in its place.
const handedOut = new Set<number>()

/** A port for a test's server: free now, and never handed out before by this process. */
export async function freePort(pick: () => Promise<number> = unusedPort) {
  for (;;) {
    const port = await pick()
    if (handedOut.has(port)) continue
    handedOut.add(port)
    return port
  }
}

export interface ServerProcess {
  child: ChildProcess
  /** Everything the server printed so far. */
  output(): string
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>
  /** Whether the process has ended, by an exit or a signal (a SIGKILL leaves `exitCode` null). */
  ended(): boolean
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>
}

/** Spawns the server with exactly `env` (no inherited settings) and resolves once `base`/readyz answers 200. */
export async function spawnServer(
  base: string,
  env: Record<string, string>,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(root, 'server/boot.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const ended = () => child.exitCode !== null || child.signalCode !== null
  const deadline = Date.now() + (options.timeoutMs ?? 90_000)
  for (;;) {
    if (ended()) throw new Error(`the server stopped:\n${output}`)
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, options.pollMs ?? 200))
  }
  return {
    child,
    output: () => output,
    exited,
    ended,
    async stop() {
      if (!ended()) {
        child.kill('SIGTERM')
        await exited
      }
    },
  }
}
