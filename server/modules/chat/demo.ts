import type { DemoStep } from '#server/db/demo-step.ts'
import { demoClients } from '#server/db/seed-data/demo.ts'
import { Role } from '../identity/permissions.ts'
import type { Caller } from '#server/api/handler.ts'

// A few conversations for the demo marketplace, written through the services: the running
// contract's room gets an exchange about the work, and the first open project's client asks a
// proposer a question before hiring (Createroom), so a fresh start shows chats with unread
// messages on both sides. User content, so English only.
const contractTalk: Array<['client' | 'freelancer', string]> = [
  [
    'client',
    'Welcome aboard! The architectural drawings and photos of the existing wall are in the project files.',
  ],
  [
    'freelancer',
    'Thanks, I have them. Could you arrange the trial pit this week? The foundation depth decides the padstone design.',
  ],
  ['client', 'The builder can dig it on Thursday. Anything they should record?'],
  [
    'freelancer',
    'Depth to the underside of the footing, its width, and the soil type below it. A photo with a tape measure is perfect.',
  ],
]

export const chatDemoStep: DemoStep = async ({ services, accounts, log }) => {
  const { projects, chat } = services
  let rooms = 0
  for (const c of demoClients) {
    const clientId = accounts.get(c.email)
    if (!clientId) continue
    const client: Caller = {
      userId: clientId,
      sessionId: 'demo',
      roles: [c.kind === 'company' ? Role.Company : Role.Client],
    }
    for (const contract of (await projects.myContracts(client, { page: 1, pageSize: 5 })).data) {
      for (const [n, [side, text]] of contractTalk.entries()) {
        const from = side === 'client' ? contract.client.id : contract.freelancer.id
        await chat.send(
          from,
          contract.roomId,
          { clientMessageId: `demo-${contract.roomId}-${n}`, text },
          'en',
        )
      }
      rooms++
    }
    if (rooms > 1) continue
    const open = (
      await projects.myProjects(client, { status: 'open', page: 1, pageSize: 10 }, 'en')
    ).data.find((p) => p.proposalCount > 0)
    if (!open) continue
    const [proposal] = (
      await projects.clientProposals(client, open.id, { status: 'pending', page: 1, pageSize: 1 })
    ).data
    if (!proposal) continue
    const { roomId } = await projects.createRoom(client, open.id, proposal.freelancer.id)
    await chat.send(
      clientId,
      roomId,
      {
        clientMessageId: `demo-${roomId}-question`,
        text: 'Before I decide: have you worked with clay soils like ours? The site investigation report is attached to the project.',
      },
      'en',
    )
    rooms++
  }
  log.info({ rooms }, 'demo conversations ready')
}
