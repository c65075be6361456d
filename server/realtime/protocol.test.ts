// Unit checks of framing helpers, cookie parsing, and two servers sharing an in-memory backplane.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryBackplane, parseCookies } from './index.ts'
import {
  ProtocolError,
  RecordParser,
  checkHandshake,
  completionRecord,
  streamItemRecord,
} from './protocol.ts'
import { formatEvent } from './transport-sse.ts'
import { makeClient, startHarness, waitFor } from '../../tests/support/realtime.ts'
import type { Harness } from '../../tests/support/realtime.ts'

describe('record framing', () => {
  it('reassembles records across chunks, including inside a multi-byte character', () => {
    const parser = new RecordParser(1024)
    const bytes = Buffer.from('{"a":"€"}\x1e{"b":1}\x1e{"c":')
    const cut = bytes.indexOf(Buffer.from('€')) + 2
    expect(parser.push(bytes.subarray(0, cut))).toEqual([])
    expect(parser.push(bytes.subarray(cut))).toEqual(['{"a":"€"}', '{"b":1}'])
    expect(parser.push(Buffer.from('2}\x1e'))).toEqual(['{"c":2}'])
  })

  it('rejects a record over the limit, whole or still incomplete', () => {
    expect(() => new RecordParser(10).push(Buffer.from('{"x":"0123456789"}\x1e'))).toThrow(ProtocolError)
    const parser = new RecordParser(10)
    expect(parser.push(Buffer.from('{"x":'))).toEqual([])
    expect(() => parser.push(Buffer.from('"0123456789'))).toThrow(ProtocolError)
  })

  it('writes result for falsy values, omits it for void, and always writes item', () => {
    expect(completionRecord('1', { result: 0 })).toBe('{"type":3,"invocationId":"1","result":0}\x1e')
    expect(completionRecord('1', { result: false })).toBe('{"type":3,"invocationId":"1","result":false}\x1e')
    expect(completionRecord('1', { result: '' })).toBe('{"type":3,"invocationId":"1","result":""}\x1e')
    expect(completionRecord('1', { result: null })).toBe('{"type":3,"invocationId":"1","result":null}\x1e')
    expect(completionRecord('1', {})).toBe('{"type":3,"invocationId":"1"}\x1e')
    expect(streamItemRecord('2', undefined)).toBe('{"type":2,"invocationId":"2","item":null}\x1e')
  })

  it('checks the handshake like ASP.NET', () => {
    expect(checkHandshake('{"protocol":"json","version":1}')).toBeNull()
    expect(checkHandshake('{"protocol":"messagepack","version":1}')).toBe(
      "The protocol 'messagepack' is not supported.",
    )
    expect(checkHandshake('{"protocol":"json","version":3}')).toBe(
      "The server does not support version 3 of the 'json' protocol.",
    )
    expect(checkHandshake('nonsense')).toBe('An unexpected error occurred during connection handshake.')
  })

  it('formats SSE events line by line', () => {
    expect(formatEvent('{"type":6}\x1e')).toBe('data: {"type":6}\x1e\r\n\r\n')
    expect(formatEvent('a\nb')).toBe('data: a\r\ndata: b\r\n\r\n')
  })
})

describe('parseCookies', () => {
  it('tolerates the attributes the Node client copies into Cookie, and junk', () => {
    const cookies = parseCookies('affinity=server-7; Path=/; session=abc%3D%3D; junk; =x; quoted="v"')
    expect(cookies.get('affinity')).toBe('server-7')
    expect(cookies.get('session')).toBe('abc==')
    expect(cookies.get('quoted')).toBe('v')
    expect(cookies.has('junk')).toBe(false)
  })
})

describe('two servers sharing the in-memory backplane', () => {
  const backplane = createMemoryBackplane()
  let a: Harness
  let b: Harness
  beforeAll(async () => {
    a = await startHarness({ backplane })
    b = await startHarness({ backplane })
  })
  afterAll(async () => {
    await Promise.all([a.close(), b.close()])
  })

  it('routes user, group and connection messages from A to a client on B', async () => {
    const client = makeClient(b.url, 'WebSockets', { token: 'user-3-m' })
    await client.connection.start()
    const got: string[] = []
    client.connection.on('note', (t: string) => got.push(t))
    await client.connection.invoke('join', 'g')
    const chat = a.hub.get('chat')
    await chat.toUser(3).send('note', 'user')
    await chat.toGroup('g').send('note', 'group')
    await chat.toConnection(client.connection.connectionId!).send('note', 'connection')
    await chat.addToGroup(client.connection.connectionId!, 'h')
    await chat.toGroup('h').send('note', 'added')
    await waitFor(() => got.length === 4, 2000, 'messages')
    expect(got).toEqual(['user', 'group', 'connection', 'added'])
    await client.connection.stop()
    await waitFor(() => b.hub.stats().connections === 0, 2000, 'connection gone')
  })
})
