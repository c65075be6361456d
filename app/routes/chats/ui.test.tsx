import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../../tests/support/render'
import type { ChatMessage } from '#server/modules/chat/contract.ts'
import { MessageItem } from './ui'

// A message as the room renders it on the server (what a page without JavaScript shows).
const message = (over: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 7,
  roomId: 3,
  clientMessageId: 'abcdefgh',
  senderId: 2,
  kind: 'text',
  text: 'Hello',
  event: null,
  params: null,
  attachments: [],
  createdAt: '2026-11-23T10:00:00.000Z',
  ...over,
})
const render = (m: ChatMessage, mine = true, read = false) =>
  renderHtml(<MessageItem message={m} mine={mine} otherName="Fred Freelancer" read={read} />)

describe('MessageItem', () => {
  it('renders markup in the text as text and makes only web addresses links', async () => {
    const html = await render(
      message({ text: '<img src=x onerror=alert(1)> see https://example.com/a and javascript:alert(2)' }),
    )
    expect(html).not.toContain('<img src="x"')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html.match(/<a /g)).toHaveLength(1)
    expect(html).toContain('href="https://example.com/a"')
    expect(html).toContain('rel="noopener noreferrer nofollow ugc"')
  })

  it("shows one of my messages as sent, then read; the other person's carry no read state", async () => {
    expect(textOf(await render(message(), true, false))).toContain('Sent')
    expect(await render(message(), true, true)).toContain('data-state="read"')
    const theirs = await render(message(), false, true)
    expect(theirs).not.toContain('data-state')
    expect(textOf(theirs)).toContain('Fred Freelancer:')
  })

  it("shows each kind of attachment its own way, through the site's download address; unknown kinds as images", async () => {
    const file = (id: number, attachmentType: number, name: string, mime: string, size = 10) => ({
      id,
      name,
      url: `files/${id}/download`,
      attachmentType,
      size,
      mime,
    })
    const html = await render(
      message({
        text: '',
        attachments: [
          file(1, 1, 'a.png', 'image/png', 245_300),
          file(2, 2, 'b.mp4', 'video/mp4'),
          file(3, 3, 'c.mp3', 'audio/mpeg'),
          file(4, 4, 'd.pdf', 'application/pdf', 1_250_000),
          file(5, 9, 'e.gif', 'image/gif'),
          file(6, 1, 'f.tiff', 'image/tiff'),
        ],
      }),
    )
    expect(html).toContain('<img src="/chats/files/1" alt="a.png"')
    expect(html).toContain('<video src="/chats/files/2" controls=""')
    expect(html).toContain('<audio src="/chats/files/3" controls=""')
    expect(html).toMatch(/href="\/chats\/files\/4" download="d.pdf">/)
    expect(html).toContain('<img src="/chats/files/5" alt="e.gif"')
    // A picture browsers cannot show is a download only; each says its kind and size.
    expect(html).not.toContain('<img src="/chats/files/6"')
    const text = textOf(html)
    expect(text).toContain('a.png Image · 246 kB')
    expect(text).toContain('d.pdf Document · 1.3 MB')
    expect(text).toContain('f.tiff Image · 1 kB')
  })

  it('centres a system message and gives it no read state', async () => {
    const html = await render(message({ kind: 'system', senderId: null, text: 'Proposal accepted' }), false)
    expect(html).toContain('ui-bubble-system')
    expect(html).not.toContain('data-state')
  })
})
