import type { IncomingMessage } from 'node:http'
import net from 'node:net'

// Which address a request came from, for rate limits, logs and the hubs. Behind a reverse proxy
// the socket's peer is the proxy; the browser's address is then in X-Forwarded-For, which anyone
// can write. So the header is believed only as far as the hops that appended to it are proxies
// the operator listed in TRUST_PROXY (decision 082): read from the right, the first address not
// listed is the client. With TRUST_PROXY unset, the socket's peer is the client.

export interface TrustedProxies {
  has(address: string): boolean
  /** Nothing is trusted: the header is never read. */
  readonly none: boolean
}

/** One address or CIDR of TRUST_PROXY, or null when it is neither (the config says which entry). */
function entry(value: string): { address: string; prefix: number | null; family: 'ipv4' | 'ipv6' } | null {
  const [raw, bits, extra] = value.split('/')
  if (extra !== undefined) return null
  const address = plain(raw)
  const version = net.isIP(address)
  if (!version) return null
  const family = version === 4 ? 'ipv4' : 'ipv6'
  if (bits === undefined) return { address, prefix: null, family }
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN
  return prefix >= 0 && prefix <= (version === 4 ? 32 : 128) ? { address, prefix, family } : null
}

/** Entries of TRUST_PROXY that are not an IP address or a CIDR block (empty when all are). */
export function invalidProxyEntries(list: readonly string[]) {
  return list.filter((value) => !entry(value))
}

export function trustedProxies(list: readonly string[]): TrustedProxies {
  const blocks = new net.BlockList()
  for (const value of list) {
    const e = entry(value)
    if (!e) throw new Error(`not an IP address or CIDR block: ${value}`)
    if (e.prefix === null) blocks.addAddress(e.address, e.family)
    else blocks.addSubnet(e.address, e.prefix, e.family)
  }
  return {
    none: list.length === 0,
    has(address) {
      const a = plain(address)
      const version = net.isIP(a)
      return version !== 0 && blocks.check(a, version === 4 ? 'ipv4' : 'ipv6')
    },
  }
}

/** The client's address: the socket's peer, or, when that peer is a trusted proxy, the rightmost untrusted hop it forwarded. */
export function clientAddress(req: IncomingMessage, trusted: TrustedProxies): string {
  let address = plain(req.socket.remoteAddress ?? '')
  if (trusted.none || !trusted.has(address)) return address
  const header = req.headers['x-forwarded-for']
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plain(hops[i])
    // A hop that is not an address was written by someone we cannot vouch for: the last trusted
    // proxy is then the furthest address we know.
    if (!net.isIP(hop)) return address
    address = hop
    if (!trusted.has(hop)) return hop
  }
  return address
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1; `[::1]` is ::1. */
function plain(address: string) {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  return mapped ? mapped[1] : bare
}
