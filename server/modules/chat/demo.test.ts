import { describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useTestApi } from '../../../tests/integration/api-client.ts'
import { seedDemo } from '#server/db/demo.ts'
import { createLogger } from '#server/log.ts'

describe.each(dialects)('demo conversations on %s', (dialect) => {
  const t = useTestApi(dialect)

  it('gives the running contract and one open project a room with messages, unread for the other side', async () => {
    await seedDemo({ services: t.api.api.services, log: createLogger('silent') })
    const rooms = await t.database.db.selectFrom('chat_room').select(['id']).execute()
    expect(rooms.length).toBe(2)
    for (const room of rooms) {
      const texts = await t.database.db
        .selectFrom('chat_message')
        .select('kind')
        .where('room_id', '=', room.id)
        .where('kind', '=', 'text')
        .execute()
      expect(texts.length).toBeGreaterThan(0)
    }
    // Each room waits for an answer from one side.
    const members = await t.database.db.selectFrom('chat_member').select(['room_id', 'user_id']).execute()
    const unread = await Promise.all(
      members.map(async (m) =>
        (await t.api.api.services.chat.countUnread(m.user_id, m.room_id)).unreadCount > 0 ? m.room_id : null,
      ),
    )
    expect(unread.filter((r) => r !== null).sort()).toEqual(rooms.map((r) => r.id).sort())
  })
})
