import fc from 'fast-check'
import type { Endpoint } from '#server/api/contract.ts'
import { buildPath, buildQuery } from '#server/api/contract.ts'
import { jsonSchemaOf, valid } from './arbitraries.ts'
import type { World } from './world.ts'

// How the security tests call an endpoint: its path filled from the world's objects, its query and
// body a valid sample of its schemas (so a refusal is about who calls, never about the input).
export const keyOf = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path}`

/** Which of the world's objects fills a path parameter, by its name (rows may say otherwise). */
export function defaultParams(world: World): Record<string, string | number> {
  const { ids, users } = world
  return {
    projectId: ids.projectId,
    contractId: ids.contractId,
    installmentId: ids.installmentId,
    roomId: ids.roomId,
    proposalId: ids.proposalId,
    requestId: ids.refundId,
    changeOrderId: ids.changeOrderId,
    invoiceId: ids.invoiceId,
    fileId: ids.fileId,
    complaintId: ids.complaintId,
    deliverableId: ids.deliverableId,
    issueId: ids.issueId,
    transmittalId: ids.transmittalId,
    weekId: ids.weekId,
    offerId: ids.offerId,
    entryId: ids.entryId,
    userId: users.freelancer.id,
    id: ids.educationId,
    page: 1,
    action: 'approve',
    state: 'completed',
    amount: 5000,
    type: 'projects',
    term: 'steel',
    slug: 'about-us',
    token: ids.paymentToken,
    account: ids.payoutAccount,
    code: 'de',
    address: 'someone@example.test',
  }
}

const samples = new Map<unknown, unknown>()
/** One valid sample of a schema, the same every run (seeded), cached per schema. */
export function sampleOf(schema: Endpoint['body']): unknown {
  if (!schema) return undefined
  if (!samples.has(schema))
    samples.set(schema, fc.sample(valid(jsonSchemaOf(schema)), { numRuns: 1, seed: 255 })[0])
  return samples.get(schema)
}

export interface CallSpec {
  params?: Record<string, string | number>
  body?: unknown
  query?: Record<string, unknown>
}

/** Calls `e` through the in-process handler as `token` (or as a visitor). */
export function callEndpoint(world: World, e: Endpoint, token: string | undefined, spec: CallSpec = {}) {
  // A parameter this file does not know yet (an endpoint added since) gets 1: the row still runs.
  const known = { ...defaultParams(world), ...spec.params }
  const params = Object.fromEntries(
    [...e.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, known[name] ?? 1]),
  )
  const query = spec.query ?? (e.query ? (sampleOf(e.query) as Record<string, unknown>) : undefined)
  const path = buildPath(e.path, params) + buildQuery(query ?? {})
  const body = e.body ? (spec.body ?? sampleOf(e.body) ?? {}) : undefined
  return world.t.call(e.method, path, { token, body })
}
