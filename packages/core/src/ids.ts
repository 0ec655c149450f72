import { monotonicFactory } from 'ulid'
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
  location: 'loc',
  connector: 'con',
  run: 'run',
  job: 'job',
  import: 'imp',
  message: 'msg',
} as const

export type IdKind = keyof typeof ID_PREFIXES
export type IdPrefix = (typeof ID_PREFIXES)[IdKind]

const nextUlid = monotonicFactory()
const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}'

/**
 * Creates a new id for a resource kind.
 *
 * @example
 * createId('component') // 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'
 */
export function createId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(now)}`
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
