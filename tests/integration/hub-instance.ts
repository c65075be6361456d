// Test-only harness: one real Workneer server (startServer, the same code as server/boot.js, without
// the web app) whose hub API a test drives through stdin. Configuration comes from the environment,
// as for the real entry. Each stdin line is a JSON command; each answer is one stdout line
// `{"harness":…}` (pino's log lines go to stdout too and are ignored by the reader).
//
//   {"id":1,"op":"send","hub":"notifications","to":"user","key":7,"target":"countNotify","args":[3]}
//   {"id":2,"op":"send","hub":"chat","to":"group","key":"room:1","target":"note","args":["hi"]}
//   {"id":3,"op":"addToGroup","hub":"chat","connectionId":"…","group":"room:1"}
import readline from 'node:readline'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { startServer } from '#server/index.ts'
import type { HubHandle } from '#server/realtime/index.ts'

type Command =
  | {
      id: number
      op: 'send'
      hub: 'chat' | 'notifications'
      to: 'user' | 'group' | 'all'
      key?: string | number
      target: string
      args: unknown[]
    }
  | {
      id: number
      op: 'addToGroup' | 'removeFromGroup'
      hub: 'chat' | 'notifications'
      connectionId: string
      group: string
    }

const answer = (o: object) => process.stdout.write(`${JSON.stringify({ harness: true, ...o })}\n`)

const config = loadConfig()
const log = createLogger(config.logLevel)
const running = await startServer(config, log, { webApp: false })
answer({ ready: true, port: running.port })

async function run(command: Command): Promise<unknown> {
  // Untyped on purpose: the test sends any target.
  const hub = running.hubs[command.hub] as HubHandle
  if (command.op !== 'send')
    return command.op === 'addToGroup'
      ? hub.addToGroup(command.connectionId, command.group)
      : hub.removeFromGroup(command.connectionId, command.group)
  const sender =
    command.to === 'user'
      ? hub.toUser(Number(command.key))
      : command.to === 'group'
        ? hub.toGroup(String(command.key))
        : hub.toAll()
  return sender.send(command.target, ...command.args)
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let command: Command
  try {
    command = JSON.parse(line) as Command
  } catch {
    return
  }
  run(command).then(
    (result) => answer({ id: command.id, ok: true, result: result ?? null }),
    (error: unknown) =>
      answer({ id: command.id, ok: false, error: String((error as Error)?.message ?? error) }),
  )
})

process.stdin.on('end', () => void running.close().then(() => process.exit(0)))
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void running.close().then(() => process.exit(0)))
