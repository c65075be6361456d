import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createReloadGate } from './live-reload-gate'

// The live-reload gate with the test clock (vi's fake timers): which messages reload the page's
// data, and which wait for the reply on screen to go (decision 352).
/** Nothing reloads however long the hold lasts; once `release` runs, one reload follows. */
function expectReloadOnlyAfter(release: () => void, reload: ReturnType<typeof vi.fn>) {
  vi.advanceTimersByTime(10_000)
  expect(reload).not.toHaveBeenCalled()
  release()
  vi.advanceTimersByTime(250)
  expect(reload).toHaveBeenCalledTimes(1)
}

describe('live reloads', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('reload once for a burst of messages, shortly after the first', () => {
    const reload = vi.fn()
    const gate = createReloadGate(reload, 250)
    gate.schedule()
    gate.schedule()
    vi.advanceTimersByTime(249)
    expect(reload).not.toHaveBeenCalled()
    gate.schedule()
    vi.advanceTimersByTime(1)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('wait while a reply is on screen and reload once when it goes', () => {
    const reload = vi.fn()
    const gate = createReloadGate(reload, 250)
    const release = gate.hold()
    gate.schedule()
    gate.schedule()
    vi.advanceTimersByTime(10_000)
    expect(reload).not.toHaveBeenCalled()
    release()
    release()
    vi.advanceTimersByTime(250)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('wait for a reply that appears after the message came, within the delay', () => {
    // payouts.spec's flake: countNotify came, then the form's POST answered with the confirmation step.
    const reload = vi.fn()
    const gate = createReloadGate(reload, 250)
    gate.schedule()
    vi.advanceTimersByTime(100)
    const release = gate.hold()
    expectReloadOnlyAfter(release, reload)
  })

  it('keep waiting when one reply hands over to the next in one commit', () => {
    // The withdraw form's errors (a hold) give way to the confirmation step (another): React runs
    // the old one's cleanup, then the new one's effect.
    const reload = vi.fn()
    const gate = createReloadGate(reload, 250)
    const releaseErrors = gate.hold()
    gate.schedule()
    releaseErrors()
    const releaseStep = gate.hold()
    expectReloadOnlyAfter(releaseStep, reload)
  })

  it('forget a reload that was due when the connection ends', () => {
    const reload = vi.fn()
    const gate = createReloadGate(reload, 250)
    gate.schedule()
    gate.cancel()
    vi.advanceTimersByTime(1_000)
    expect(reload).not.toHaveBeenCalled()
  })
})
