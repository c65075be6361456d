import { spawn } from 'node:child_process'

// `npm test`'s first part: the type check, the linter, the formatter's check and the test build, two
// at a time. Each runs on one core for most of its time, so two of them share the machine's two cores
// (decision 364). A step's output is printed whole when it ends, so the log reads step by step; any
// step failing fails the whole, after the others have ended. The type check, the longest, starts first.
const steps = ['typecheck', 'lint', 'format:check', 'build:test']
const atOnce = Number(process.env.CHECKS_AT_ONCE ?? 2)

function run(script: string) {
  const started = Date.now()
  return new Promise<boolean>((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] })
    const output: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk))
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000)
      process.stdout.write(Buffer.concat(output))
      console.log(`${script}: ${code === 0 ? 'passed' : `FAILED (${code})`} in ${seconds} s\n`)
      resolve(code === 0)
    })
  })
}

const queue = [...steps]
const passed: boolean[] = []
async function worker() {
  for (let script = queue.shift(); script; script = queue.shift()) passed.push(await run(script))
}
await Promise.all(Array.from({ length: atOnce }, worker))
process.exit(passed.every(Boolean) ? 0 : 1)
