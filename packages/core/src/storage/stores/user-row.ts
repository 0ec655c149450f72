import type { Role, User } from '../../schemas/account'

const USER_COLUMNS = ['id', 'username', 'display_name', 'role', 'disabled', 'last_login_at', 'created_at', 'updated_at', 'version'] as const

/**
 * The columns of a `users` row a `User` shows, read through `alias`, each
 * named `<prefix><column>`: the session and token stores read a user in the
 * same statement as their own row, under a prefix that keeps the two apart.
 * The password hash is never among them.
 */
export function userColumns(alias: string, prefix = ''): string {
  return USER_COLUMNS.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(', ')
}

/** The `User` of a row read with `userColumns(alias, prefix)`. */
export function toUser(row: object, prefix = ''): User {
  const r = row as Record<string, unknown>
  const at = (c: (typeof USER_COLUMNS)[number]) => r[`${prefix}${c}`]
  return {
    id: at('id') as string,
    username: at('username') as string,
    displayName: at('display_name') as string,
    role: at('role') as Role,
    // Booleans are integers in both engines' schemas.
    disabled: Number(at('disabled')) === 1,
    lastLoginAt: (at('last_login_at') as string | null) ?? null,
    createdAt: at('created_at') as string,
    updatedAt: at('updated_at') as string,
    version: Number(at('version')),
  }
}
