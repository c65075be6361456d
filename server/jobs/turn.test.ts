import fs from 'node:fs'
import { expect, test } from 'vitest'
import { loopTurn } from './turn.ts'

// A turn taken from any phase of the event loop lets a timer due meanwhile run before it ends
// (decision 363): a job that yields after each step never holds a request's timer for two steps.

/** Sets a timer due at once, waits until it is due, then takes a turn: the order they ended in. */
async function timerThenTurn() {
  const order: string[] = []
  setTimeout(() => order.push('timer'), 0)
  const due = performance.now() + 3
  while (performance.now() < due);
  await loopTurn()
  order.push('turn')
  return order
}

test('a turn taken from an I/O callback lets a due timer run first', async () => {
  const order = await new Promise<string[]>((resolve) =>
    fs.stat(import.meta.filename, () => resolve(timerThenTurn())),
  )
  expect(order).toEqual(['timer', 'turn'])
})

test('a turn taken from a timer lets a due timer run first', async () => {
  const order = await new Promise<string[]>((resolve) => setTimeout(() => resolve(timerThenTurn()), 0))
  expect(order).toEqual(['timer', 'turn'])
})

test('a turn taken from the check phase lets a due timer run first', async () => {
  const order = await new Promise<string[]>((resolve) => setImmediate(() => resolve(timerThenTurn())))
  expect(order).toEqual(['timer', 'turn'])
})
