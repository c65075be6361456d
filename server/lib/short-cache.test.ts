import { describe, expect, it } from 'vitest'
import { createShortCache } from './short-cache.ts'

describe('short cache', () => {
  it('answers from memory until the time is up, then loads again', async () => {
    let clock = 0
    let loads = 0
    const cache = createShortCache(1000, { now: () => clock })
    const load = async () => ++loads
    expect(await cache.get('faq:en', load)).toBe(1)
    clock = 999
    expect(await cache.get('faq:en', load)).toBe(1)
    expect(await cache.get('faq:de', load)).toBe(2)
    clock = 1000
    expect(await cache.get('faq:en', load)).toBe(3)
  })

  it('shares one load between concurrent readers and keeps no failure', async () => {
    const cache = createShortCache(1000, { now: () => 0 })
    let loads = 0
    const [a, b] = await Promise.all([
      cache.get('k', async () => ++loads),
      cache.get('k', async () => ++loads),
    ])
    expect([a, b, loads]).toEqual([1, 1, 1])
    await expect(cache.get('bad', () => Promise.reject(new Error('no such page')))).rejects.toThrow(
      'no such page',
    )
    expect(await cache.get('bad', async () => 'found')).toBe('found')
  })

  it('forgets everything on clear, also an answer whose load began before the write', async () => {
    const cache = createShortCache(1000, { now: () => 0 })
    expect(await cache.get('k', async () => 'old')).toBe('old')
    await cache.clear()
    expect(await cache.get('k', async () => 'new')).toBe('new')
    let finish = (_: string) => {}
    const slow = cache.get('s', () => new Promise<string>((r) => (finish = r)))
    await cache.clear()
    finish('read before the write')
    expect(await slow).toBe('read before the write')
    expect(await cache.get('s', async () => 'after the write')).toBe('after the write')
  })

  it('keeps nothing when the time is 0', async () => {
    const cache = createShortCache(0)
    let loads = 0
    await cache.get('k', async () => ++loads)
    await cache.get('k', async () => ++loads)
    expect(loads).toBe(2)
  })
})
