import { createHash } from 'node:crypto'
import { encodeTime, monotonicFactory } from 'ulid'
import * as z from 'zod'

/**
 * Id prefixes per resource. Ids are `<prefix>_<ULID>`: globally unique, and
 * sortable by creation time (a monotonic factory keeps ids made in the same
 * millisecond in order), so id order is a stable default sort.
 */
export const ID_PREFIXES = {
  component: 'cmp',
  symbol: 'sym',
  footprint: 'fp',
  attachment: 'att',
  manufacturer: 'mfr',
  mpn: 'mpn',
  parameterType: 'pty',
  parameter: 'par',
  tag: 'tag',
  category: 'cat',
  location: 'loc',
  connector: 'con',
  run: 'run',
  job: 'job',
  import: 'imp',
  message: 'msg',
  user: 'usr',
  token: 'tok',
  savedView: 'view',
  source: 'src',
} as const

export type IdKind = keyof typeof ID_PREFIXES
export type IdPrefix = (typeof ID_PREFIXES)[IdKind]

const nextUlid = monotonicFactory()
const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}'
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * Creates a new id for a resource kind.
 *
 * @example
 * createId('component') // 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'
 */
export function createId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(now)}`
}

/**
 * The same id for the same `time` and `seed`, wherever it is made: a ULID of
 * that time whose random part comes from SHA-256 of the seed. Servers sharing a
 * database name one event (a connector's cron tick) alike, so only one of them
 * can record it.
 */
export function deterministicId(kind: IdKind, time: number, seed: string): string {
  const digest = createHash('sha256').update(seed).digest()
  let random = ''
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i]! & 31]
  return `${ID_PREFIXES[kind]}_${encodeTime(time, 10)}${random}`
}

/** Whether `value` is a well-formed id of the given kind. */
export function isId(kind: IdKind, value: unknown): value is string {
  return typeof value === 'string' && _patterns[kind].test(value)
}

/** A zod schema for the id of a resource kind; documented with an example. */
export function idSchema(kind: IdKind) {
  const prefix = ID_PREFIXES[kind]
  return z
    .string()
    .regex(_patterns[kind], { error: `expected a ${kind} id (${prefix}_ followed by 26 characters)` })
    .meta({ example: `${prefix}_01JD7W3T9X4QF5B8S2M6K0N1PZ` })
}

const _patterns = Object.fromEntries(
  Object.entries(ID_PREFIXES).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_${ULID_PATTERN}$`)]),
) as Record<IdKind, RegExp>
