import { afterAll, expect } from 'vitest'
import { leftovers } from './leftovers.ts'

// A setup file: registered first, this file-level hook runs after every other one of the file.
afterAll(async () => {
  expect(await leftovers(), 'test databases left behind').toEqual([])
})
