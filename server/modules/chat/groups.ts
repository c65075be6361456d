import type { HubGroupRule } from '../notifications/groups.ts'
import type { ChatService } from './service.ts'

// `room:{id}` on the chat hub: only the room's two members may join (decision 150); the room's
// messages, typing and read receipts go there.
export function chatGroups(chat: ChatService): HubGroupRule[] {
  return [
    {
      hub: 'chat',
      kind: 'room',
      check: async (user, id) => /^[1-9]\d{0,9}$/.test(id) && (await chat.isMember(user.userId, Number(id))),
    },
  ]
}
