import type { Generated } from 'kysely'

// Notifications (server/modules/notifications): a message key and its params, rendered per reader.
export type NotificationType =
  | 'Project'
  | 'Proposal'
  | 'ProjectStatus'
  | 'Chat'
  | 'Complaint'
  | 'Payment'
  | 'SavedSearch'
  | 'Invitation'
  | 'Verification'
  | 'Hiring'
  | 'Offer'

export type NotificationTable = {
  id: Generated<number>
  user_id: number
  source: string
  message_key: string
  params: Generated<string>
  type: NotificationType
  project_id: number | null
  room_id: number | null
  sender_id: number | null
  is_read: Generated<number>
  created_at: string
}

// Notification preferences (server/modules/notifications/preferences.ts, migration 0046): only
// what a person turned off or on again is stored; a kind and channel without a row is on.
export type NotificationPreferenceTable = {
  user_id: number
  kind: string
  channel: string
  enabled: number
  updated_at: string
}
export type NoticeMailTable = { user_id: number; source: string; created_at: string }
// Web Push subscriptions (server/modules/notifications/push.ts, migration 0054): one per browser.
export type PushSubscriptionTable = {
  id: Generated<number>
  user_id: number
  /** The session that turned push on: once it has ended (signed out, expired, revoked), nothing is sent. */
  session_id: string
  endpoint: string
  p256dh: string
  auth: string
  label: string
  created_at: string
}

// Chat (server/modules/chat, migration 0022).
export type ChatRoomTable = {
  id: Generated<number>
  project_id: number
  client_id: number
  freelancer_id: number
  last_message_id: number | null
  created_at: string
}
export type ChatMemberTable = {
  room_id: number
  user_id: number
  role: 'client' | 'freelancer'
  last_read_message_id: Generated<number>
  last_activity_at: string
  /** 0 none, 1 scheduled, 2 sent, for the current unread run (reset on read). */
  alert_state: Generated<number>
  email_state: Generated<number>
}
export type ChatMessageTable = {
  id: Generated<number>
  room_id: number
  sender_id: number | null
  client_message_id: string
  kind: 'text' | 'system'
  body: string
  event: string | null
  params: string | null
  created_at: string
}
export type ChatAttachmentTable = { message_id: number; position: number; file_id: number }

export interface MessagingTables {
  notification: NotificationTable
  notification_preference: NotificationPreferenceTable
  notice_mail: NoticeMailTable
  push_subscription: PushSubscriptionTable
  notice_push: NoticeMailTable
  chat_room: ChatRoomTable
  chat_member: ChatMemberTable
  chat_message: ChatMessageTable
  chat_attachment: ChatAttachmentTable
}
