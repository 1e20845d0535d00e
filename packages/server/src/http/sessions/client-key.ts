// Who a request's client is, for the per-client session cap: the identity authentication gives
// it when that tells clients apart, else its remote address. A shared bearer token (the `token` option)
// is held by every client alike, so it names no one; the address does better there. IPv6
// addresses count per /64, the block one host usually gets, so it cannot rotate past the cap.

import type { IncomingMessage } from 'node:http'

/** The key of a remote address: IPv4 whole, IPv6 by its /64 prefix. */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'address:unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return `address:${mapped[1]}`
  if (!address.includes(':')) return `address:${address}`
  const zoneless = address.split('%')[0] as string
  const [head = '', tail] = zoneless.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length)
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups]
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group || '0', 16).toString(16))
  return `address:${prefix.join(':')}::/64`
}

/**
 * The default key: `identity` (what the auth layer says this client is, when it tells clients
 * apart) or else the remote address.
 */
export function defaultClientKey(request: IncomingMessage, identity: string | undefined): string {
  return identity === undefined ? addressKey(request.socket.remoteAddress) : `identity:${identity}`
}
