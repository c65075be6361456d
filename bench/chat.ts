import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fork } from 'node:child_process'
import * as signalR from '@microsoft/signalr'
import { openDatabase, migrateToLatest, type Db } from '#server/db/database.ts'
import { randomBytes } from 'node:crypto'
import { seedReference } from '#server/db/seed.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { publishedProject, RETAINING_WALL } from '../tests/support/modules/projects.ts'
import { benchDatabase, ensureBuild, root, startWorkneer } from './lib.ts'

// Issue 16, on SQLite and PostgreSQL:
// (1) a room with 10,000 messages opens its newest 50 (GET chat/{roomId}, in process) < 20 ms p95;
// (2) the chat list of a user with 500 rooms (GET chat/rooms/1) < 30 ms p95;
// (3) send to delivery: a message sent through the API until the other member's official
//     @microsoft/signalr connection (WebSockets, joined to the room) receives ReceiveMessage, with
//     2,000 connections open on the server (1,999 idle SignalR connections of another user,
//     bench/hubs-clients.ts), 200 samples, p99 < 50 ms. `node bench/chat.ts` runs it alone.
const ITERATIONS = 200
const SAMPLES = Number(process.env.BENCH_CHAT_SAMPLES ?? 200)
const CONNECTIONS = 2000
type Dialect = 'sqlite' | 'postgres'
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b)
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), p99: quantile(s, 0.99) }
}

/** A client with a project, 500 freelancers each in a room with them (3 messages each), one room of 10,000 messages. */
async function fill(database: Db, dataDir: string) {
  const api = moduleTestApi(database, { name: 'chat-bench', addressBlock: 24, dataDir })
  const [client, freelancer, bystander] = [
    await api.user('client'),
    await api.user('freelancer'),
    await api.user('freelancer'),
  ]
  const projectId = await publishedProject(api, database, client, RETAINING_WALL)
  const chat = api.api.services.chat
  const now = new Date().toISOString()
  const others = await database.db
    .insertInto('app_user')
    .values(
      Array.from({ length: 499 }, (_, i) => ({
        email: `bench-${i}@chat-bench.test`,
        first_name: 'Bench',
        last_name: `Freelancer ${i}`,
        company_name: null,
        phone_number: null,
        account_type: 'freelancer' as const,
        status: 'Active' as const,
        image_file_id: null,
        password_hash: null,
        terms_accepted_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute()
  const big = await database.db
    .transaction()
    .execute((trx) => chat.openRoom(trx, { projectId, clientId: client.id, freelancerId: freelancer.id }))
  for (const [i, o] of others.entries()) {
    const roomId = await database.db
      .transaction()
      .execute((trx) => chat.openRoom(trx, { projectId, clientId: client.id, freelancerId: o.id }))
    for (let n = 0; n < 3; n++)
      await chat.send(
        n % 2 ? o.id : client.id,
        roomId,
        { clientMessageId: `fill-${i}-${n}`, text: `Message ${n} about the retaining wall` },
        'en',
      )
  }
  for (let start = 0; start < 10_000; start += 500) {
    await database.db
      .insertInto('chat_message')
      .values(
        Array.from({ length: 500 }, (_, k) => ({
          room_id: big,
          sender_id: (start + k) % 2 ? client.id : freelancer.id,
          client_message_id: `bulk-${start + k}`,
          kind: 'text' as const,
          body: `Bulk message ${start + k} with some text about drainage and reinforcement`,
          event: null,
          params: null,
          created_at: now,
        })),
      )
      .execute()
  }
  const last = await database.db
    .selectFrom('chat_message')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('room_id', '=', big)
    .executeTakeFirstOrThrow()
  await database.db
    .updateTable('chat_room')
    .set({ last_message_id: Number(last.id) })
    .where('id', '=', big)
    .execute()
  // Both have read the history, as members who open their room do.
  for (const u of [client, freelancer]) await chat.markRead(u.id, big)
  return { api, client, freelancer, bystander, bigRoom: big }
}

async function timeIt(run: () => Promise<{ status: number }>) {
  const ms: number[] = []
  for (let i = 0; i < ITERATIONS + 20; i++) {
    const started = performance.now()
    const answer = await run()
    if (answer.status !== 200) throw new Error(`bench call failed: ${answer.status}`)
    if (i >= 20) ms.push(performance.now() - started)
  }
  return stats(ms)
}

async function sendToDelivery(
  base: string,
  roomId: number,
  sender: string,
  receiver: string,
  idleToken: string,
) {
  const idle = fork(
    path.join(root, 'bench/hubs-clients.ts'),
    ['signalr', `${base.replace('http', 'ws')}/hubs/chat?access_token=${encodeURIComponent(idleToken)}`],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  )
  const reply = (op: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (m.op !== op) return
        idle.off('message', on)
        resolve(m)
      }
      idle.on('message', on)
    })
  await reply('ready')
  idle.send({ op: 'connect', total: CONNECTIONS - 1 })
  const connected = await reply('connected')
  const connection = new signalR.HubConnectionBuilder()
    .withUrl(`${base}/hubs/chat`, {
      transport: signalR.HttpTransportType.WebSockets,
      accessTokenFactory: () => receiver,
    })
    .configureLogging(signalR.LogLevel.None)
    .build()
  let waiting: ((at: number) => void) | null = null
  connection.on('ReceiveMessage', () => waiting?.(performance.now()))
  await connection.start()
  await connection.invoke('JoinGroup', `room:${roomId}`)
  const latencies: number[] = []
  try {
    for (let i = 0; i < SAMPLES + 10; i++) {
      const received = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no ReceiveMessage within 10 s')), 10_000)
        waiting = (at) => {
          clearTimeout(timer)
          waiting = null
          resolve(at)
        }
      })
      const sent = performance.now()
      const response = await fetch(`${base}/api/v1/chat/${roomId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sender}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          clientMessageId: `live-${i}-${randomBytes(3).toString('hex')}`,
          text: 'Is the drainage layer in the drawings?',
        }),
      })
      if (response.status !== 200)
        throw new Error(`send refused: ${response.status} ${await response.text()}`)
      await response.arrayBuffer()
      const at = await received
      if (i >= 10) latencies.push(at - sent)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  } finally {
    await connection.stop()
    idle.send({ op: 'close' })
  }
  return { ...stats(latencies), connections: Number(connected.connections) + 1 }
}

export async function runChatBench({ dialects = ['sqlite', 'postgres'] }: { dialects?: Dialect[] } = {}) {
  ensureBuild()
  const rows: string[] = []
  for (const dialect of dialects) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-chat-bench-'))
    const { target: where, drop } = await benchDatabase(dialect, dataDir, 'wk_bench_chat')
    const database = await openDatabase(where)
    try {
      await migrateToLatest(database)
      await seedReference(database.db)
      const f = await fill(database, dataDir)
      const open = await timeIt(() => f.api.call('GET', `chat/${f.bigRoom}`, { token: f.client.token }))
      const list = await timeIt(() => f.api.call('GET', 'chat/rooms/1', { token: f.client.token }))
      console.log(
        `${dialect}: newest 50 of 10,000 p50/p95/p99 ${open.p50.toFixed(1)}/${open.p95.toFixed(1)}/${open.p99.toFixed(1)} ms; list of 500 rooms ${list.p50.toFixed(1)}/${list.p95.toFixed(1)}/${list.p99.toFixed(1)} ms`,
      )
      // The fill's deliveries (no hubs here) go now, so the server starts with an empty outbox.
      await f.api.api.jobs.outbox.drain()
      await f.api.close()
      await database.close()
      const env: Record<string, string> = { DATA_DIR: dataDir, SEED_DEMO: 'false' }
      if (where.kind === 'postgres') env.DATABASE_URL = where.url
      const server = await startWorkneer(env)
      let live
      try {
        live = await sendToDelivery(
          server.url,
          f.bigRoom,
          f.client.token,
          f.freelancer.token,
          f.bystander.token,
        )
      } finally {
        server.child.kill()
        await new Promise((resolve) => server.child.once('exit', resolve))
      }
      rows.push(
        `| ${dialect} | room of 10,000: newest 50 | ${open.p50.toFixed(1)} | ${open.p95.toFixed(1)} | ${open.p99.toFixed(1)} | < 20 | ${open.p95 < 20 ? 'meets' : 'MISSES'} |`,
      )
      rows.push(
        `| ${dialect} | chat list, 500 rooms | ${list.p50.toFixed(1)} | ${list.p95.toFixed(1)} | ${list.p99.toFixed(1)} | < 30 | ${list.p95 < 30 ? 'meets' : 'MISSES'} |`,
      )
      rows.push(
        `| ${dialect} | send to delivery, ${live.connections} connections | ${live.p50.toFixed(1)} | ${live.p95.toFixed(1)} | ${live.p99.toFixed(1)} | p99 < 50 | ${live.p99 < 50 ? 'meets' : 'MISSES'} |`,
      )
    } finally {
      await drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
  console.log(
    `\nChat (issue 16): API calls in process, ${ITERATIONS} each; send to delivery over HTTP and the official client (WebSockets), ${SAMPLES} samples`,
  )
  console.log('| database | scenario | p50 ms | p95 ms | p99 ms | target ms | |')
  console.log('| --- | --- | ---: | ---: | ---: | --- | --- |')
  for (const r of rows) console.log(r)
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} cores`,
  )
}

if (import.meta.main)
  await runChatBench({ dialects: process.env.BENCH_DIALECTS?.split(',') as Dialect[] | undefined })
