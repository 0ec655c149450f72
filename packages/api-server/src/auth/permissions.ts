import type { Role, TokenScope } from '@complib/core'

/**
 * What a route may need (each route declares one: routing/define-route.ts).
 * Roles and token scopes are sets of these, below: data, not checks spread
 * through the handlers (decision 1501).
 */
export const PERMISSIONS = {
  public: 'Anyone, without a credential',
  account: 'Any signed-in caller (a user, a token, the API key, or keyless loopback mode)',
  'library:read': 'Read the library: components and everything about them, searches, exports, KiCad',
  'library:write': 'Change the library: components, symbols, footprints, attachments, manufacturers, MPNs, parameters, tags, categories, locations, stock, bulk edits, imports',
  'connectors:read': 'See connectors (never their secrets), their code and runs',
  'connectors:push': 'Start, dry-run and cancel a connector’s push',
  'connectors:admin': 'Create, configure and delete connectors; change their code and signing secrets',
  'sources:read': 'See the configured sources of parts (never their credentials)',
  'sources:search': 'Search a source and read its parts (spends the provider’s quota)',
  'sources:admin': 'Configure sources: their type, name and credentials',
  'users:admin': 'Create users, change their roles, disable them, reset passwords, see and revoke everyone’s tokens',
  'audit:read': 'Read and verify the audit trail',
  'settings:admin': 'Change server settings (audit retention, where pushes may go) and prune the audit trail',
  'backup:read': 'Download a backup of the whole library',
} as const
export type Permission = keyof typeof PERMISSIONS

const VIEWER: readonly Permission[] = ['account', 'library:read', 'connectors:read', 'sources:read']
const EDITOR: readonly Permission[] = [...VIEWER, 'library:write', 'connectors:push', 'sources:search']
const ADMIN: readonly Permission[] = [...EDITOR, 'connectors:admin', 'sources:admin', 'users:admin', 'audit:read', 'settings:admin', 'backup:read']

/** The built-in roles: each holds the one below it. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(VIEWER),
  editor: new Set(EDITOR),
  admin: new Set(ADMIN),
}

const RANK: Readonly<Record<Role, number>> = { viewer: 0, editor: 1, admin: 2 }

/** The role a token scope stands for. */
export const SCOPE_ROLE: Readonly<Record<TokenScope, Role>> = { read: 'viewer', write: 'editor', admin: 'admin' }

/** The lesser of two roles: what a token of `scope` owned by a user of `role` acts as, now. */
export function lesserRole(a: Role, b: Role): Role {
  return RANK[a] <= RANK[b] ? a : b
}

/** Whether `role` holds at least what `other` does. */
export function roleCovers(role: Role, other: Role): boolean {
  return RANK[role] >= RANK[other]
}

/** The roles that hold a permission, lowest first (for the OpenAPI document's lines). */
export function rolesWith(permission: Permission): Role[] {
  if (permission === 'public') return []
  return (Object.keys(ROLE_PERMISSIONS) as Role[]).filter((r) => ROLE_PERMISSIONS[r].has(permission))
}
