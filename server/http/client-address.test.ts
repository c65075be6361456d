import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { clientAddress, invalidProxyEntries, trustedProxies } from './client-address.ts'

const request = (peer: string, forwarded?: string | string[]) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const none = trustedProxies([])
    expect(clientAddress(request('203.0.113.9', '198.51.100.1'), none)).toBe('203.0.113.9')
    expect(clientAddress(request('::ffff:127.0.0.1', '198.51.100.1'), none)).toBe('127.0.0.1')
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    const trusted = trustedProxies(['10.0.0.0/8'])
    expect(clientAddress(request('203.0.113.9', '198.51.100.1'), trusted)).toBe('203.0.113.9')
  })

  it('takes the rightmost untrusted hop behind trusted proxies (what a client wrote on the left is not believed)', () => {
    const trusted = trustedProxies(['10.0.0.1', '10.1.0.0/16'])
    // client forged "1.2.3.4"; the real client 198.51.100.7 reached proxy 10.1.2.3, which reached 10.0.0.1, which reached us.
    expect(clientAddress(request('10.0.0.1', '1.2.3.4, 198.51.100.7, 10.1.2.3'), trusted)).toBe(
      '198.51.100.7',
    )
    expect(clientAddress(request('::ffff:10.0.0.1', ['1.2.3.4', '198.51.100.7']), trusted)).toBe(
      '198.51.100.7',
    )
  })

  it('stops at a hop that is not an address, and uses the last proxy it can vouch for', () => {
    const trusted = trustedProxies(['10.0.0.1', '10.0.0.2'])
    expect(clientAddress(request('10.0.0.1', 'garbage, 10.0.0.2'), trusted)).toBe('10.0.0.2')
    expect(clientAddress(request('10.0.0.1', 'unknown'), trusted)).toBe('10.0.0.1')
    expect(clientAddress(request('10.0.0.1'), trusted)).toBe('10.0.0.1')
  })

  it('is the leftmost hop when every hop is a trusted proxy', () => {
    const trusted = trustedProxies(['10.0.0.0/8'])
    expect(clientAddress(request('10.0.0.1', '10.9.9.9, 10.0.0.5'), trusted)).toBe('10.9.9.9')
  })

  it('matches IPv6 addresses and blocks', () => {
    const trusted = trustedProxies(['2001:db8::/32', '::1'])
    expect(clientAddress(request('::1', '2001:db8::5, 2001:4860::8888'), trusted)).toBe('2001:4860::8888')
    expect(clientAddress(request('2001:db8:1::1', '[2001:4860::1]'), trusted)).toBe('2001:4860::1')
  })
})

describe('TRUST_PROXY', () => {
  it('takes addresses and CIDR blocks separated by commas', () => {
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 10.1.0.0/16,::1 , 2001:db8::/32' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      '2001:db8::/32',
    ])
    expect(loadConfig({}).trustProxy).toEqual([])
  })

  it('refuses anything else with one line naming the setting', () => {
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.256']) {
      expect(invalidProxyEntries([bad])).toEqual([bad])
      expect(() => loadConfig({ TRUST_PROXY: `10.0.0.1,${bad}` })).toThrow(
        /TRUST_PROXY: must be IP addresses or CIDR blocks/,
      )
    }
  })
})
