import { describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { tinyPdf } from '../../../tests/integration/module-api.ts'
import { contractFor, fund, usePayments } from '../../../tests/support/modules/payments.ts'
import { askVerification } from '../../../tests/support/modules/verification.ts'

// The marks of trust on both databases (decision 332): a verified freelancer's badge on their
// public profile and on their proposal in the client's view; "Payment method verified" on the
// client's public profile and on the project's page once one of the client's payments succeeded.
for (const dialect of portableDialects) {
  describe(`verified badges on ${dialect}`, () => {
    const s = usePayments(dialect)

    test('the badge follows the approval, and a client is payment-verified after a payment succeeds', async () => {
      const { client, freelancer } = s
      const admin = await s.t.admin('Vic', 'Verifier')
      const { projectId, installments } = await contractFor(s.t.call, s.database, client, freelancer, [40000])
      const profileOf = () => s.t.call('GET', `freelancers/${freelancer.id}/profile`, { token: client.token })
      const proposalOf = async () =>
        (await s.t.call('GET', `projects/${projectId}/details-for-client`, { token: client.token })).json
          .proposals[0].freelancer
      const clientPage = () => s.t.call('GET', `clients/${client.id}/profile`, { token: freelancer.token })
      const projectPage = async () =>
        (await s.t.call('GET', `projects/${projectId}/details-for-freelancer`, { token: freelancer.token }))
          .json.project

      expect((await profileOf()).json.verified).toBe(false)
      expect((await proposalOf()).verified).toBe(false)
      expect((await clientPage()).json.paymentVerified).toBe(false)
      expect((await projectPage()).clientPaymentVerified).toBe(false)

      const asked = await askVerification(s.t.raw, freelancer.token, { name: 'id.pdf', bytes: tinyPdf() })
      expect(asked.status).toBe(200)
      const queue = await s.t.call('GET', 'Admin/verifications', { token: admin.token })
      const id = queue.json.data.find((r: { userId: number }) => r.userId === freelancer.id).id
      expect((await proposalOf()).verified).toBe(false)
      const decided = await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'approve' },
      })
      expect(decided.status, decided.text).toBe(200)
      expect((await profileOf()).json.verified).toBe(true)
      expect((await proposalOf()).verified).toBe(true)

      await fund(s.t.call, client, projectId, [installments[0]!.id])
      expect((await clientPage()).json.paymentVerified).toBe(true)
      expect((await projectPage()).clientPaymentVerified).toBe(true)
      // Another client has paid nothing.
      const other = await s.t.call('GET', `clients/${s.other.id}/profile`, { token: freelancer.token })
      expect(other.json.paymentVerified).toBe(false)
    })
  })
}
