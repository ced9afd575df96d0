import { type LookupAddress, type LookupAllOptions, lookup } from 'node:dns'
import { BlockList, isIP } from 'node:net'

// Where a callback may go (CALLBACK_ALLOW_PRIVATE). Any tenant names the URL its callbacks and its
// URL check go to: without this rule, the sandbox would call for it what only the sandbox can
// reach — its own /_sandbox/info on loopback, a cloud's metadata service (169.254.169.254), the
// machines of its private network. Loopback, private, link-local and other non-public ranges are
// refused unless allowed (by default they are while the sandbox listens on loopback only: its
// clients are then on its machine and reach all of those themselves, config.ts).
//
// The rule holds where the connection is made: the courier's Agent resolves each name through
// `guardedLookup`, so a name that resolves to a public address for a check and to a private one
// for the callback (DNS rebinding) is refused as well. An address written in the URL is never
// looked up: `refusedTarget` checks it before the request.

const NOT_PUBLIC = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind it
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6')

/** Whether an IP address is loopback, private, link-local or otherwise not public (IPv4-mapped too). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  return NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

const SETTING = 'callbacks to loopback, private and link-local addresses need CALLBACK_ALLOW_PRIVATE=true'

/** Why the URL's host, when it is an IP address, may not be called; undefined when it may. */
export function refusedTarget(url: URL, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (isPrivateAddress(host)) return `${host} is not a public address: ${SETTING}`
  return undefined
}

/** A name that resolves to an address callbacks may not go to. */
export class PrivateTargetError extends Error {
  readonly code = 'EPRIVATETARGET'
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/**
 * `lookup` for net.connect / tls.connect (the courier's undici Agent): dns.lookup, refusing a name
 * any of whose addresses is not public, so that no answer of a resolver can lead a callback there.
 */
export function guardedLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean; hints?: number } | undefined,
  callback: LookupCallback,
): void {
  const all: LookupAllOptions = { ...(options as object), all: true }
  lookup(hostname, all, (err, addresses) => {
    if (err) return callback(err, [])
    const refused = addresses.find(a => isPrivateAddress(a.address))
    if (refused)
      return callback(new PrivateTargetError(`${hostname} resolves to ${refused.address}: ${SETTING}`), [])
    if (options?.all) return callback(null, addresses)
    const first = addresses[0]
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), [])
    callback(null, first.address, first.family)
  })
}
