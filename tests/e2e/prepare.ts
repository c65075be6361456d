import pg from 'pg'
import { ensureTestBuild } from '../support/test-build.ts'

// A fresh PostgreSQL database for each end-to-end run, so the run starts from an empty
// marketplace like a new installation does.
const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const client = new pg.Client({ connectionString: admin })
try {
  await client.connect()
} catch (error) {
  console.error(
    `PostgreSQL is required for the end-to-end tests and is not reachable at ${admin}: ${(error as Error).message}`,
  )
  process.exit(1)
}
const name = process.env.E2E_DATABASE ?? 'workneer_e2e'
if (!/^\w+$/.test(name)) throw new Error('E2E_DATABASE must be a plain name')
await client.query(`drop database if exists ${name} with (force)`)
await client.query(`create database ${name}`)
await client.end()

// The specs open the test routes of app/routes.ts, which only a build made with E2E=1 has.
ensureTestBuild('E2E')
