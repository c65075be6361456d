import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { startServer, type RunningServer } from '#server/index.ts'
import { createLogger } from '#server/log.ts'
import { routeLabel } from '#server/http/metrics.ts'
import { createTestDatabase, dialects, type TestDatabase } from './databases.ts'
import { head, rawRequest } from './raw-http.ts'

// /metrics of a real server on both databases (decision 262): a scrape in the Prometheus text
// format counts the requests served before it by route and status, with latency histograms, hub
// connections, the outbox and the ledger; only loopback may read it without METRICS_TOKEN, and
// with it only the bearer of the token.

const value = (text: string, line: RegExp) =>
  Number(
    text
      .split('\n')
      .find((l) => line.test(l))
      ?.split(' ')
      .at(-1),
  )

describe('route labels', () => {
  it('put placeholders for ids and tokens, and stop growing', () => {
    expect(routeLabel('api', '/api/v1/projects/42/proposal', 200)).toBe('/api/v1/projects/{id}/proposal')
    expect(routeLabel('pages', '/auth/verify-email/abcdefabcdefabcdefabcdefabcdef', 200)).toBe(
      '/auth/verify-email/{token}',
    )
    expect(routeLabel('pages', '/no/such/page', 404)).toBe('unmatched')
    const seen = new Set<string>()
    for (let i = 0; i < 500; i++) routeLabel('pages', `/p${i}`, 200, seen)
    expect(routeLabel('pages', '/another', 200, seen)).toBe('other')
    expect(seen.size).toBe(400)
  })
})

for (const dialect of dialects) {
  describe(`/metrics on ${dialect}`, () => {
    let testDb: TestDatabase
    let running: RunningServer
    let base: string
    let dataDir: string

    async function start(env: Record<string, string> = {}) {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-metrics-'))
      const target = testDb.target
      const config = loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
        DATABASE_URL: target.kind === 'postgres' ? target.url : target.file,
        ...env,
      })
      running = await startServer(config, createLogger('silent'), { webApp: false })
      base = `http://127.0.0.1:${running.port}`
    }

    beforeAll(async () => {
      testDb = await createTestDatabase(dialect)
      await start()
    }, 60_000)
    afterAll(async () => {
      await running?.close()
      await testDb?.drop()
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
    })

    it('counts requests by route and status, and reports hubs, outbox, pool and ledger', async () => {
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/v1/categories`)).status).toBeLessThan(500)
      expect((await fetch(`${base}/api/v1/projects/999999`)).status).toBeGreaterThanOrEqual(400)
      const scrape = await fetch(`${base}/metrics`)
      expect(scrape.status).toBe(200)
      expect(scrape.headers.get('content-type')).toContain('text/plain')
      const text = await scrape.text()
      expect(
        value(
          text,
          /^workneer_http_requests_total\{destination="api",method="GET",route="\/api\/v1\/categories",status="\d+"\}/,
        ),
      ).toBe(3)
      expect(text).toMatch(
        /^workneer_http_request_duration_seconds_bucket\{le="0\.005",destination="api",method="GET",route="\/api\/v1\/categories"\}/m,
      )
      expect(text).toMatch(
        /^workneer_http_request_duration_seconds_count\{destination="api",method="GET",route="\/api\/v1\/categories"\} 3$/m,
      )
      expect(text).toContain('# TYPE workneer_hub_connections gauge')
      expect(text).toMatch(/^workneer_outbox_lag_seconds \d/m)
      expect(text).toMatch(/^workneer_db_up 1$/m)
      expect(text).toContain('# TYPE workneer_ledger_balance_minor gauge')
      // The ledger's health from its checks' last run (at start, then every 15 minutes: decision 264), not a scan per scrape.
      await expect
        .poll(
          async () =>
            (await (await fetch(`${base}/metrics`)).text()).match(
              /^workneer_ledger_health_problems\{check="transactionsBalance"\} (\d+)$/m,
            )?.[1],
        )
        .toBe('0')
      expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^workneer_ledger_health_age_seconds \d/m)
      expect(text).toMatch(/^workneer_process_resident_memory_bytes \d/m)
      if (dialect === 'postgres')
        expect(text).toMatch(/^workneer_db_pool_connections\{state="total"\} [1-9]/m)
      // A second scrape sees the first (its own route is not counted: it is not a guarded request).
      expect(
        value(
          await (await fetch(`${base}/metrics`)).text(),
          /^workneer_http_requests_total\{destination="api",method="GET",route="\/api\/v1\/categories"/,
        ),
      ).toBe(3)
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405)
    })

    it("counts the guard's refusals too, whose HTML pages carry the nonce policy (decision 261)", async () => {
      const refused = await rawRequest(running.port, [head('GET / HTTP/1.1', ['Host: a b'])], {
        closeWaitMs: 200,
      })
      expect(refused.status).toBe(400)
      expect(refused.head).toMatch(
        /content-security-policy: default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/i,
      )
      expect(await (await fetch(`${base}/metrics`)).text()).toMatch(
        /^workneer_http_requests_total\{destination="refused",method="GET",route="\/",status="400"\} [1-9]/m,
      )
    })

    it('asks for METRICS_TOKEN when it is set', async () => {
      await running.close()
      await start({ METRICS_TOKEN: 'metrics-token-of-the-test' })
      expect((await fetch(`${base}/metrics`)).status).toBe(401)
      expect(
        (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-the-test' } }))
          .status,
      ).toBe(401)
      const ok = await fetch(`${base}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-of-the-test' },
      })
      expect(ok.status).toBe(200)
      expect(await ok.text()).toContain('workneer_http_requests_total')
    })
  })
}
