import { expect } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { moduleTestApi, useModuleApi, type ModuleTestApi } from '../../integration/module-api.ts'
import type { TestDialect } from '../../integration/databases.ts'
import { propose, publishedProject } from './projects.ts'

// Test helpers for the chat API: users, a project with proposals, an accepted contract, and
// multipart sends with several files, through the in-process handler.
export { tinyPdf, tinyPng } from '../../integration/module-api.ts'

const options = { name: 'chat', addressBlock: 23, freelancerTitle: 'Structural engineer' }
export const chatTestApi = (database: Db, env?: Record<string, string>) =>
  withChat(moduleTestApi(database, { ...options, env }), database)
/** A describe block's database and chat API (`s.t`, with these settings), made before its tests and dropped after them. */
export const useChat = (dialect: TestDialect, env?: () => Record<string, string>) =>
  useModuleApi(dialect, () => ({ ...options, env: env?.() }), withChat)

function withChat(t: ModuleTestApi, database: Db) {
  type U = Awaited<ReturnType<typeof t.user>>

  /** A published project of `client` with a proposal from each freelancer; answers the project and proposal ids. */
  async function projectWithProposals(client: U, freelancers: U[]) {
    const projectId = await publishedProject(t, database, client)
    const proposals: number[] = []
    for (const f of freelancers) proposals.push(await propose(t, projectId, f))
    return { projectId, proposals }
  }

  /** `client` accepts `freelancer`'s proposal: answers the contract (its roomId is the room). */
  async function contract(client: U, freelancer: U) {
    const { projectId, proposals } = await projectWithProposals(client, [freelancer])
    const accepted = await t.call('POST', `projects/proposals/${proposals[0]}/accept/${projectId}`, {
      token: client.token,
    })
    expect(accepted.status, accepted.text).toBe(200)
    await t.api.jobs.outbox.drain()
    return accepted.json as {
      id: number
      projectId: number
      roomId: number
      installments: Array<{ id: number }>
    }
  }

  /** A multipart send: fields, then files (name and bytes) in the part `files`. */
  const sendForm = (
    roomId: number,
    token: string,
    fields: Record<string, string>,
    files: Array<[string, Buffer]> = [],
  ) => postForm(`chat/${roomId}`, token, fields, files)

  /** A multipart POST to any API path: fields, then files (name and bytes) in the part `files`. */
  async function postForm(
    pathname: string,
    token: string,
    fields: Record<string, string>,
    files: Array<[string, Buffer]> = [],
  ) {
    const boundary = '----workneer-chat-test'
    const parts: Buffer[] = []
    for (const [k, v] of Object.entries(fields))
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
    for (const [name, bytes] of files)
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        bytes,
        Buffer.from('\r\n'),
      )
    parts.push(Buffer.from(`--${boundary}--\r\n`))
    const body = Buffer.concat(parts)
    const response = await t.raw('POST', pathname, {
      token,
      body,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    })
    const text = await response.text()
    return { status: response.status, json: text ? JSON.parse(text) : undefined, text }
  }

  let n = 0
  const clientId = () => `msg-${Date.now().toString(36)}-${++n}`
  /** A JSON send with a fresh client message id. */
  const say = (roomId: number, token: string, text: string, id = clientId()) =>
    t.call('POST', `chat/${roomId}`, { token, body: { clientMessageId: id, text } })

  return { ...t, projectWithProposals, contract, sendForm, postForm, say, clientId }
}
