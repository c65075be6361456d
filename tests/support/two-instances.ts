import { startTwoInstances } from './balancer.ts'

// `node tests/support/two-instances.ts`: what Playwright starts instead of one PostgreSQL server
// when E2E_TWO_INSTANCES=1 (npm run proof): two instances behind the balancer on PORT, with the
// rest of the environment (DATABASE_URL, DATA_DIR…) shared. PUBLIC_URL is the balancer's address.
const port = Number(process.env.PORT)
const env = {
  ...(process.env as Record<string, string>),
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
}
const pair = await startTwoInstances(env, port)
console.log(`two instances behind ${pair.base}`)
// Printed at the end (stderr reaches Playwright's log): proof that both instances served.
const stop = () => {
  console.error(
    `balancer on ${pair.base} served ${pair.balancer.served.map((n, i) => `instance ${i}: ${n}`).join(', ')}`,
  )
  void pair.stop().then(() => process.exit(0))
}
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
