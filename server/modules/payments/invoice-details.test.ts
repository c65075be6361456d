import { describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { contractFor, fund, usePayments } from '../../../tests/support/modules/payments.ts'

// Invoice details on both databases (decision 311): a person enters them once through the API the
// settings form uses; bad input is refused at its field and changes nothing; a release's invoices
// copy both parties' details, the platform's legal details from the configuration and the tax
// line (the platform's VAT in its fees, the freelancer's in their price when they gave a rate), and
// keep that copy when someone edits their address later.
const platformEnv = {
  PLATFORM_LEGAL_NAME: 'Workneer S.L.',
  PLATFORM_ADDRESS: 'Calle Mayor 1; 28013 Madrid ;Spain',
  PLATFORM_REGISTRATION: 'Registro Mercantil de Madrid, hoja M-123456',
  PLATFORM_VAT_ID: 'ESB12345678',
  PLATFORM_VAT_PERCENT: '21',
}
const platform = {
  name: 'Workneer S.L.',
  address: ['Calle Mayor 1', '28013 Madrid', 'Spain'],
  registration: 'Registro Mercantil de Madrid, hoja M-123456',
  vatId: 'ESB12345678',
}

for (const dialect of portableDialects) {
  describe(`invoice details on ${dialect}`, () => {
    const s = usePayments(dialect, () => platformEnv)
    type U = { token: string }
    const details = (u: U) => s.t.call('GET', 'Payment/invoice-details', { token: u.token })
    const save = (u: U, body: Record<string, unknown>) =>
      s.t.call('PUT', 'Payment/invoice-details', { token: u.token, body })

    test('entered once, read back by their owner only; bad input names its field and changes nothing', async () => {
      expect((await details(s.client)).json).toEqual({ details: null, defaultName: 'Clara Client' })
      expect((await s.t.call('GET', 'Payment/invoice-details')).status).toBe(401)

      const bad = await save(s.client, {
        addressLine1: '  ',
        postcode: '10115!',
        country: 'Germany',
        vatId: 'DE 12#45',
        vatRatePercent: 60,
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual([
        'addressLine1',
        'city',
        'postcode',
        'vatId',
        'vatRatePercent',
      ])
      // The API words the shared schema's messages for its caller.
      expect(bad.json.errors.vatId[0]).toContain('letters and digits only')
      expect((await details(s.client)).json.details).toBeNull()
      const tooLong = await save(s.client, {
        addressLine1: 'x'.repeat(101),
        city: 'Berlin',
        country: 'Germany',
        vatId: 'DE1234567890123456789',
      })
      expect(Object.keys(tooLong.json.errors).sort()).toEqual(['addressLine1', 'vatId'])

      const saved = await save(s.client, {
        legalName: ' Clara Client GmbH ',
        addressLine1: 'Hauptstraße 5',
        postcode: '10115',
        city: 'Berlin',
        country: 'Germany',
        vatId: 'de 123.456-789',
      })
      expect(saved.status, saved.text).toBe(200)
      const mine = {
        legalName: 'Clara Client GmbH',
        addressLine1: 'Hauptstraße 5',
        addressLine2: '',
        postcode: '10115',
        city: 'Berlin',
        country: 'Germany',
        vatId: 'DE123456789',
        vatRatePercent: null,
      }
      expect(saved.json.details).toEqual(mine)
      expect((await details(s.client)).json.details).toEqual(mine)
      expect((await details(s.other)).json.details).toBeNull()
    })

    test("a release's invoices keep both parties' details, the platform's and the VAT included, whatever is edited later", async () => {
      const fran = {
        addressLine1: 'Carrer de Mallorca 100',
        addressLine2: '3º 2ª',
        postcode: '08029',
        city: 'Barcelona',
        country: 'Spain',
        vatId: 'ES12345678Z',
        vatRatePercent: '20',
      }
      expect((await save(s.freelancer, fran)).status).toBe(200)
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [120000])
      const installmentId = c.installments[0].id
      await fund(s.t.call, s.client, c.projectId, [installmentId])
      const sent = await s.t.call('POST', `projects/installments/${installmentId}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Done.' },
      })
      expect(sent.status, sent.text).toBe(200)
      const approved = await s.t.call('POST', `projects/installments/${installmentId}/approve`, {
        token: s.client.token,
        body: {},
      })
      expect(approved.status, approved.text).toBe(200)
      const invoices = async (u: U) =>
        (
          (await s.t.call('GET', 'Payment/invoices', { token: u.token })).json.data as Array<
            Record<string, unknown> & { kind: string; id: number }
          >
        ).filter((v) => v.projectId === c.projectId)

      const franParty = {
        name: 'Fran Engineer',
        address: ['Carrer de Mallorca 100', '3º 2ª', '08029 Barcelona', 'Spain'],
        vatId: 'ES12345678Z',
        registration: '',
      }
      const claraParty = {
        name: 'Clara Client GmbH',
        address: ['Hauptstraße 5', '10115 Berlin', 'Germany'],
        vatId: 'DE123456789',
        registration: '',
      }
      const theirs = await invoices(s.client)
      const service = theirs.find((v) => v.kind === 'service')!
      // The price includes the freelancer's 20 %: €1,000 and €200 of VAT in €1,200.
      expect(service).toMatchObject({
        issuerName: 'Fran Engineer',
        recipientName: 'Clara Client',
        amountMinor: 120000,
        issuer: franParty,
        recipient: claraParty,
        platform,
        tax: { ratePercent: 20, amountMinor: 20000 },
      })
      // The platform's fee of €36 includes its 21 %: €6.25.
      expect(theirs.find((v) => v.kind === 'client_fee')).toMatchObject({
        amountMinor: 3600,
        issuer: platform,
        recipient: claraParty,
        tax: { ratePercent: 21, amountMinor: 625 },
      })
      expect((await invoices(s.freelancer)).find((v) => v.kind === 'platform_fee')).toMatchObject({
        amountMinor: 12000,
        issuer: platform,
        recipient: franParty,
        tax: { ratePercent: 21, amountMinor: 2083 },
      })

      // Fran moves and stops charging VAT: the invoice already issued does not change.
      expect(
        (await save(s.freelancer, { ...fran, city: 'Girona', postcode: '17001', vatRatePercent: '' })).status,
      ).toBe(200)
      expect((await details(s.freelancer)).json.details).toMatchObject({
        city: 'Girona',
        vatRatePercent: null,
      })
      const again = await s.t.call('GET', `Payment/invoices/${service.id}`, { token: s.freelancer.token })
      expect(again.json).toMatchObject({ issuer: franParty, tax: { ratePercent: 20, amountMinor: 20000 } })
    })
  })
}
