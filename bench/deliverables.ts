import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import { seedReference } from '#server/db/seed.ts'
import { moduleTestApi } from '../tests/integration/module-api.ts'
import { contractFor } from '../tests/support/modules/payments.ts'
import { onBothDatabases } from './lib.ts'

// Issue 40: a contract's register of 500 deliverables and 5,000 issues (ten revisions each, all
// but the last answered) opens in under 50 ms p95 on SQLite and PostgreSQL (decision 318): GET
// projects/{id}/deliverables through the in-process API, as the register page reads it. The rows
// are written in bulk, as the register writes them; this measures reading.
const DELIVERABLES = Number(process.env.BENCH_DELIVERABLES ?? 500)
const REVISIONS = 10
const RUNS = Number(process.env.BENCH_REGISTER_RUNS ?? 60)

async function fill(database: Db, dataDir: string) {
  await seedReference(database.db)
  const api = moduleTestApi(database, {
    name: 'register-bench',
    addressBlock: 41,
    dataDir,
    // As a production server answers: without checking each answer against its schema.
    env: { NODE_ENV: 'production' },
  })
  const [client, freelancer] = [await api.user('client'), await api.user('freelancer')]
  const { projectId, contractId, installments } = await contractFor(api.call, database, client, freelancer)
  const now = new Date().toISOString()
  const db = database.db
  await db
    .insertInto('deliverable_register')
    .values({ contract_id: contractId, scheme: 'stage', created_at: now })
    .execute()
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < DELIVERABLES; from += 50) {
      const made = await trx
        .insertInto('deliverable')
        .values(
          Array.from({ length: Math.min(50, DELIVERABLES - from) }, (_, k) => ({
            contract_id: contractId,
            installment_id: installments[(from + k) % installments.length].id,
            number: `S-${1000 + from + k}`,
            title: `Drawing ${from + k}`,
            discipline: 'Structures',
            position: from + k + 1,
            created_by: freelancer.id,
            created_at: now,
          })),
        )
        .returning('id')
        .execute()
      for (const [k, d] of made.entries()) {
        const transmittals = await trx
          .insertInto('transmittal')
          .values(
            Array.from({ length: REVISIONS }, (_, r) => ({
              contract_id: contractId,
              number: (from + k) * REVISIONS + r + 1,
              sender_id: freelancer.id,
              recipient_id: client.id,
              created_at: now,
            })),
          )
          .returning('id')
          .execute()
        const issues = await trx
          .insertInto('deliverable_issue')
          .values(
            transmittals.map((t, r) => ({
              deliverable_id: d.id,
              contract_id: contractId,
              transmittal_id: t.id,
              sequence: r + 1,
              revision: `P${String(r + 1).padStart(2, '0')}`,
              status: 'for_comment',
              note: 'Revised after comments.',
              issued_by: freelancer.id,
              issued_at: now,
            })),
          )
          .returning('id')
          .execute()
        await trx
          .insertInto('deliverable_response')
          .values(
            issues.slice(0, -1).map((i) => ({
              issue_id: i.id,
              contract_id: contractId,
              outcome: 'revise_and_resubmit',
              comment: 'Please revise.',
              responded_by: client.id,
              responded_at: now,
            })),
          )
          .execute()
      }
    }
  })
  if (database.dialect === 'postgres') await sql`ANALYZE`.execute(db)
  return { api, client, projectId }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

async function run(database: Db, label: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-register-bench-'))
  try {
    const { api, client, projectId } = await fill(database, dataDir)
    const ms: number[] = []
    let size = 0
    for (let n = 0; n < RUNS + 10; n++) {
      const started = performance.now()
      const answer = await api.call('GET', `projects/${projectId}/deliverables`, { token: client.token })
      if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.text}`)
      if (n >= 10) ms.push(performance.now() - started)
      size = answer.text.length
    }
    await api.close()
    return [
      {
        database: label,
        register: `${DELIVERABLES} deliverables, ${DELIVERABLES * REVISIONS} issues`,
        'p50 ms': pct(ms, 0.5).toFixed(1),
        'p95 ms': pct(ms, 0.95).toFixed(1),
        'answer KB': Math.round(size / 1024),
      },
    ]
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function runDeliverablesBench() {
  const results = await onBothDatabases('wk_bench_register', run)
  console.log(`\nDeliverables register (issue 40): the whole register through the API, ${RUNS} runs:`)
  console.table(results)
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) await runDeliverablesBench()
