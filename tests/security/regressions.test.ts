import { describe, expect, test } from 'vitest'
import { dialects } from '../integration/databases.ts'
import { useWorld } from './world.ts'

// The defects the matrix and the fuzzing found (decisions 255 and 257), each kept as a test of its own.
for (const dialect of dialects) {
  describe(`what the fuzzing found, on ${dialect}`, () => {
    const s = useWorld(dialect, `regress${dialect}`, dialect === 'sqlite' ? 68 : 69)

    test("an id past 32 bits is a 400 naming the field, not a 500 (PostgreSQL's integer columns)", async () => {
      const { t, users } = s.world
      for (const [path, field] of [
        ['chat/2147483648', 'roomId'],
        ['projects/2147483648/details-for-client', 'projectId'],
        ['Payment/invoices/99999999999', 'invoiceId'],
      ] as const) {
        const answer = await t.call('GET', path, { token: users.client.token })
        expect(answer.status, path).toBe(400)
        expect(Object.keys(answer.json.errors), path).toEqual([field])
      }
      // The statement's cursor is an entry id too (found at 40 inputs per endpoint, seed 257).
      const statement = await t.call('GET', 'Payment/statements?after=90636459499', {
        token: users.client.token,
      })
      expect(statement.status, statement.text).toBe(400)
      expect(Object.keys(statement.json.errors)).toEqual(['after'])
      expect(
        (await t.call('GET', 'Payment/statements?after=2147483647', { token: users.client.token })).status,
      ).toBe(200)
      const list = await t.call('GET', 'projects?budgetMin=2147483648')
      expect(list.status).toBe(400)
      expect(Object.keys(list.json.errors)).toEqual(['budgetMin'])
      expect((await t.call('GET', 'chat/2147483647', { token: users.client.token })).status).toBe(404)
    })

    test("a NUL character in any text is a 400 naming the field, not a 500 (PostgreSQL's text refuses it)", async () => {
      const { t, users, ids } = s.world
      const body = { school: 'TU\u0000Delft', degree: 'MSc', description: 'fine' }
      const answer = await t.call('PUT', `freelancers/profile/educations/${ids.educationId}`, {
        token: users.freelancer.token,
        body,
      })
      expect(answer.status, answer.text).toBe(400)
      expect(Object.keys(answer.json.errors)).toEqual(['school'])
      const nested = await t.call('POST', 'projects', {
        token: users.client.token,
        body: { title: 'ok', installments: [{ title: 'a\u0000' }] },
      })
      expect(nested.status).toBe(400)
      expect(Object.keys(nested.json.errors)).toEqual(['installments.0.title'])
      // A field named __proto__ is named like any other (it once found Object.prototype: a 500).
      const proto = await t.call('POST', 'freelancers/profile/employment-history', {
        token: users.freelancer.token,
        body: JSON.parse('{"company":"Arup","role":"x","startMonth":"2015-01","__proto__":"\\u0000"}'),
      })
      expect(proto.status, proto.text).toBe(400)
      expect(Object.keys(proto.json.errors)).toEqual(['__proto__'])
      const search = await t.call('GET', 'projects?search=%00')
      expect(search.status).toBe(400)
      expect(Object.keys(search.json.errors)).toEqual(['search'])
    })

    test("a gateway named after an object's own machinery is not found, not a 500", async () => {
      for (const gateway of ['valueOf', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        const answer = await s.world.t.call('POST', `Payment/PaymentCallback?gateway=${gateway}`, {
          body: {},
        })
        expect(answer.status, gateway).toBe(404)
      }
    })
  })
}
