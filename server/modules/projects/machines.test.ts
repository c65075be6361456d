import fs from 'node:fs'
import { describe, expect, test } from 'vitest'
import { docPath } from './machines-doc.ts'
import { machines, machinesMarkdown } from './machines.ts'

describe('state machines', () => {
  test('docs/state-machines.md is generated from the code', () => {
    expect(fs.readFileSync(docPath, 'utf8')).toBe(machinesMarkdown())
  })

  test('every transition leaves from and enters known states, and every state is reachable', () => {
    for (const m of machines) {
      const states = new Set<string>(m.states)
      const reached = new Set<string>(m.initial)
      for (const t of m.transitions) {
        expect(states.has(t.to), `${m.entity}.${t.action} → ${t.to}`).toBe(true)
        for (const f of t.from) expect(states.has(f), `${m.entity}.${t.action} from ${f}`).toBe(true)
        expect(t.actors.length).toBeGreaterThan(0)
        reached.add(t.to)
      }
      expect([...reached].sort()).toEqual([...states].sort())
      expect(new Set(m.transitions.map((t) => t.action)).size).toBe(m.transitions.length)
    }
  })
})
