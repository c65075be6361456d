import { describe, expect, test } from 'vitest'
import type { Endpoint } from '#server/api/contract.ts'
import { dialects } from '../integration/databases.ts'
import { callEndpoint, keyOf } from './calls.ts'
import { callerOf, columns, rowFor, rowToAdd, type Cell, type Column, type Row } from './expectations.ts'
import { leaks, useWorld } from './world.ts'

// Issue 19 item 1 (decision 255): every endpoint of the API (api.endpoints, the list the OpenAPI
// document is made from) called as each column of expectations.ts over a small world. Per cell:
// the status as written; no answer carries a marker its caller may not read; a refused call
// changes no row of any table. Refusals run first, over the untouched world; then the calls that
// are let in (reads, writes, deletes, and last those that end the caller's session).
const LET_IN = new Set<Cell>(['ok', 'any'])

for (const dialect of dialects) {
  describe(`the authorization matrix on ${dialect}`, () => {
    const s = useWorld(dialect, `matrix${dialect}`, dialect === 'sqlite' ? 61 : 64)

    test('every public and user endpoint has a row', () => {
      const { world } = s
      const missing = world.t.api.endpoints.filter((e) => !rowFor(e)).map(rowToAdd)
      expect(missing, missing.join('\n')).toEqual([])
    })

    // Decision 335: every endpoint about a project, called on the invite-only project by those it
    // leaves out. A visitor is asked to sign in (or, on a public door, told it does not exist); the
    // other freelancer is told it does not exist; a client or company may also be told their role
    // does not do this (403), which says nothing of the project. Nothing changes, nothing leaks.
    // It runs before the matrix's writes, which could invite the second freelancer.
    test('the invite-only project exists for no one it leaves out', async () => {
      const { world, changes } = s
      const failures: string[] = []
      const projectDoors = world.t.api.endpoints.filter(
        (e) => e.access !== 'admin' && e.path.includes('{projectId}'),
      )
      const allowed: Record<string, number[]> = {
        visitor: [401, 404],
        freelancer2: [404],
        company: [403, 404],
        client2: [403, 404],
      }
      for (const e of projectDoors)
        for (const who of ['visitor', 'freelancer2', 'company', 'client2'] as const) {
          await changes.clear()
          const token = who === 'visitor' ? undefined : world.users[who].token
          const spec = rowFor(e)?.call?.(world)
          const answer = await callEndpoint(world, e, token, {
            ...spec,
            params: { ...spec?.params, projectId: world.ids.invitedProjectId },
          })
          const where = `${keyOf(e)} on the invite-only project as ${who}`
          if (!allowed[who]!.includes(answer.status))
            failures.push(`${where}: answered ${answer.status} ${answer.text.slice(0, 160)}`)
          const leaked = leaks(world, who, answer.text, keyOf(e))
          if (leaked.length) failures.push(`${where}: answer carries ${leaked.join(', ')}`)
          const tables = await changes.tables()
          if (tables.length) failures.push(`${where}: changed ${tables.join(', ')}`)
        }
      expect(failures, failures.join('\n')).toEqual([])
      expect(projectDoors.length).toBeGreaterThan(20)
    }, 120_000)

    test('every cell answers as written, leaks nothing, and a refusal changes nothing', async () => {
      const { world, changes } = s
      type Planned = { e: Endpoint; row: Row; column: Column; expected: Cell }
      const planned: Planned[] = world.t.api.endpoints.flatMap((e) => {
        const row = rowFor(e)
        return row ? columns.map((column) => ({ e, row, column, expected: row.cells[column] })) : []
      })
      const stage = (p: Planned) =>
        !LET_IN.has(p.expected)
          ? 0
          : p.row.endsSession
            ? 3 + p.row.endsSession
            : p.e.method === 'GET'
              ? 1
              : p.e.method === 'DELETE'
                ? 3
                : 2
      planned.sort((a, b) => stage(a) - stage(b))
      const failures: string[] = []
      const seen = new Set<string>()
      let writesCompared = 0
      for (const p of planned) {
        const who = callerOf(world, p.column, p.row.owner)
        const token = who === 'visitor' ? undefined : world.users[who].token
        const refused = !LET_IN.has(p.expected)
        // Every refusal, reads included, on both databases: watching costs only the rows changed.
        if (refused) await changes.clear()
        const answer = await callEndpoint(world, p.e, token, p.row.call?.(world))
        const where = `${keyOf(p.e)} as ${p.column} (${who})`
        for (const m of world.markers.keys()) if (answer.text.includes(m)) seen.add(m)
        if (
          p.expected === 'any'
            ? answer.status >= 500
            : p.expected === 'ok'
              ? answer.status >= 500 || answer.status === 401 || answer.status === 403
              : answer.status !== p.expected
        )
          failures.push(
            `${where}: expected ${p.expected}, answered ${answer.status} ${answer.text.slice(0, 160)}`,
          )
        const leaked = leaks(world, who, answer.text, keyOf(p.e))
        if (leaked.length) failures.push(`${where}: answer carries ${leaked.join(', ')} (${answer.status})`)
        if (refused) {
          writesCompared += 1
          const tables = await changes.tables()
          if (tables.length)
            failures.push(`${where}: refused with ${answer.status} but changed ${tables.join(', ')}`)
        }
      }
      console.log(
        `authorization matrix on ${dialect}: ${planned.length} cells over ${world.t.api.endpoints.length} endpoints, ${writesCompared} refusals checked for changed rows, ${seen.size}/${world.markers.size} markers seen by their readers`,
      )
      expect(failures, failures.join('\n')).toEqual([])
      // A marker no reader ever saw proves nothing: each must reach someone allowed to read it.
      expect(
        [...world.markers].filter(([m]) => !seen.has(m)).map(([m, audience]) => `${m} (${[...audience]})`),
      ).toEqual([])
    }, 240_000)
  })
}
