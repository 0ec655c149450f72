import { DEFAULT_SETTINGS, type OutboundPolicy } from '@complib/core'
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/** One address a host name resolves to, as node:dns gives it. */
export interface ResolvedAddress {
  address: string
  family: number
}

/** All the addresses a host name resolves to (node:dns's lookup by default; tests give their own). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>

/** A destination the outbound policy refuses: nothing was sent to it. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError'
}

/**
 * The outbound policy of one run or dry run (Settings → outbound), applied
 * to every destination connector code or a connector URL names.
 */
export interface OutboundGuard {
  /**
   * The addresses `url` may be reached at: its host resolved (every address)
   * and checked. Rejects with OutboundRefusedError when the policy refuses it,
   * and with the resolver's error when the name does not resolve.
   */
  check(url: string): Promise<ResolvedAddress[]>
  /**
   * A `lookup` for node:net/http that resolves and checks like `check` and
   * hands back only the checked addresses, so a connection goes to an address
   * that was checked, never to one a second DNS answer gave (rebinding).
   */
  lookup: LookupFunction
}

const HINT = 'an admin can change the outbound policy in Settings'

/**
 * Link-local and cloud metadata addresses (IPv4 169.254.0.0/16, IPv6 fe80::/10,
 * AWS's fd00:ec2::254): where a cloud server reads its instance credentials.
 * node:net's BlockList also matches IPv4-mapped IPv6 forms (::ffff:169.254.169.254).
 */
const METADATA = new BlockList()
METADATA.addSubnet('169.254.0.0', 16, 'ipv4')
METADATA.addSubnet('fe80::', 10, 'ipv6')
METADATA.addAddress('fd00:ec2::254', 'ipv6')

/**
 * The guard of a policy. With `blockMetadata`, a destination is refused when
 * any address its host resolves to is link-local or cloud metadata. With
 * `allowedHosts` not empty, a host is reached only when its name matches an
 * entry (exact, or `*.example.com` for the subdomains of example.com), or at
 * those of its addresses inside an entry that is an address or a CIDR network.
 *
 * @example
 * const guard = createOutboundGuard({ blockMetadata: true, allowedHosts: ['*.example.com', '10.0.0.0/8'] })
 * await guard.check('http://169.254.169.254/latest') // rejects: link-local/cloud metadata
 */
export function createOutboundGuard(policy: OutboundPolicy = DEFAULT_SETTINGS.outbound, resolve: Resolve = _resolve): OutboundGuard {
  const allowed = _allowList(policy.allowedHosts)

  const permitted = (host: string, addresses: ResolvedAddress[]): ResolvedAddress[] => {
    if (policy.blockMetadata) {
      const blocked = addresses.find((a) => METADATA.check(a.address, _family(a.family)))
      if (blocked) {
        const what = blocked.address === host ? blocked.address : `${host} resolves to ${blocked.address}, which`
        throw new OutboundRefusedError(`${what} is a link-local/cloud metadata address; ${HINT}`)
      }
    }
    if (!allowed || allowed.names.has(host) || allowed.suffixes.some((s) => host.endsWith(s))) return addresses
    const inside = addresses.filter((a) => allowed.addresses.check(a.address, _family(a.family)))
    if (inside.length === 0) throw new OutboundRefusedError(`${host} is not among the allowed hosts of the outbound policy; ${HINT}`)
    return inside
  }

  const check = async (url: string): Promise<ResolvedAddress[]> => {
    const host = _hostOf(url)
    return permitted(host, await _addresses(host, resolve))
  }

  const lookup: LookupFunction = (hostname, options, callback) => {
    const host = _normalHost(hostname)
    _addresses(host, resolve)
      .then((found) => permitted(host, found))
      .then(
        (addresses) => {
          // node:net asks for every address when it tries them in turn (autoSelectFamily), else for one.
          if ((options as { all?: boolean }).all) return callback(null, addresses)
          callback(null, addresses[0]!.address, addresses[0]!.family)
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, ''),
      )
  }

  return { check, lookup }
}

async function _addresses(host: string, resolve: Resolve): Promise<ResolvedAddress[]> {
  const family = isIP(host)
  if (family) return [{ address: host, family }]
  const found = await resolve(host)
  if (found.length === 0) throw new Error(`${host} resolves to no address`)
  return found
}

function _resolve(host: string): Promise<ResolvedAddress[]> {
  return dnsLookup(host, { all: true, verbatim: true })
}

interface _AllowList {
  names: Set<string>
  /** `.example.com` for an entry `*.example.com`. */
  suffixes: string[]
  addresses: BlockList
}

function _allowList(entries: readonly string[]): _AllowList | null {
  if (entries.length === 0) return null
  const list: _AllowList = { names: new Set(), suffixes: [], addresses: new BlockList() }
  for (const raw of entries) {
    const entry = _normalHost(raw.trim())
    const slash = entry.indexOf('/')
    if (slash >= 0) {
      const network = entry.slice(0, slash)
      const prefix = Number(entry.slice(slash + 1))
      const family = isIP(network)
      if (!family || !Number.isInteger(prefix)) continue
      // An entry that is no network (10.0.0.0/40) matches nothing rather than everything.
      try {
        list.addresses.addSubnet(network, prefix, _family(family))
      } catch {
        continue
      }
    } else if (isIP(entry)) list.addresses.addAddress(entry, _family(isIP(entry)))
    else if (entry.startsWith('*.')) list.suffixes.push(entry.slice(1))
    else list.names.add(entry)
  }
  return list
}

function _hostOf(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`${url} is not a URL`)
  }
  return _normalHost(parsed.hostname)
}

/** Lower case, without an IPv6 literal's brackets or a name's final dot. */
function _normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return bare.toLowerCase().replace(/\.$/, '')
}

function _family(family: number): 'ipv4' | 'ipv6' {
  return family === 6 ? 'ipv6' : 'ipv4'
}
