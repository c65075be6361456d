import pg from 'pg'

// A fresh PostgreSQL database for each end-to-end run, so the run starts from an empty
// marketplace like a new installation does.
const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const client = new pg.Client({ connectionString: admin })
try {
  await client.connect()
} catch (error) {
  console.error(`PostgreSQL is required for the end-to-end tests and is not reachable at ${admin}: ${(error as Error).message}`)
  process.exit(1)
}
await client.query('drop database if exists workneer_e2e with (force)')
await client.query('create database workneer_e2e')
await client.end()
