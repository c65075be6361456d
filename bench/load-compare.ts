import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { root } from './lib.ts'

// Runs `npm run load` against two checkouts one after the other, at each number of users, and prints
// both builds' figures in one table: a change's effect on what users feel, measured in one sitting.
//   node bench/load-compare.ts --before ../workneer-before --minutes 2 --users 24,96
// The other checkout must be installed and built (npm ci && npm run build).
const { values: options } = parseArgs({
  options: {
    before: { type: 'string' },
    minutes: { type: 'string', default: '2' },
    users: { type: 'string', default: '24,96' },
    database: { type: 'string', default: 'sqlite' },
  },
})
if (!options.before) throw new Error('--before names the checkout to compare with')
const builds = { before: path.resolve(options.before), after: root }

interface Figures {
  reqPerSecond: number
  p50: number
  p99: number
  errors: number
  rssEnd: number
  rssMax: number
  rssIdle: number
  cpuPer1000: number
}

function runLoad(dir: string, users: string): Figures {
  const args = [
    'bench/load.ts',
    '--minutes',
    options.minutes!,
    '--users',
    users,
    '--database',
    options.database!,
  ]
  const run = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const out = `${run.stdout}\n${run.stderr}`
  const served = out.match(/([\d.]+) req\/s; p50 ([\d.]+) ms, p99 ([\d.]+) ms; errors (\d+)/)
  const memory = out.match(/RSS \d+ MB at start, (\d+) MB at the end, (\d+) MB at most/)
  if (!served || !memory) throw new Error(`npm run load in ${dir} printed no summary:\n${out.slice(-3000)}`)
  // Each run's summary lines (where the memory is, the server's CPU) as it printed them.
  console.log(out.slice(out.indexOf('served ')).split('\nchart:')[0])
  return {
    reqPerSecond: Number(served[1]),
    p50: Number(served[2]),
    p99: Number(served[3]),
    errors: Number(served[4]),
    rssEnd: Number(memory[1]),
    rssMax: Number(memory[2]),
    // An older checkout's load.ts does not wait for the server to settle.
    rssIdle: Number(/RSS (\d+) MB after the load/.exec(out)?.[1] ?? NaN),
    // The server's CPU seconds per 1,000 requests (decision 345); an older load.ts does not print them.
    cpuPer1000: Number(/([\d.]+) s per 1,000 requests/.exec(out)?.[1] ?? NaN),
  }
}

const rows = []
for (const users of options.users!.split(',')) {
  for (const [build, dir] of Object.entries(builds)) {
    console.log(`load: ${users} users, ${build} (${dir})`)
    rows.push({ users: Number(users), build, ...runLoad(dir, users) })
  }
}
console.table(rows)
