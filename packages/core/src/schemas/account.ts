import * as z from 'zod'
import { idSchema } from '../ids'
import { PageQuery, Timestamp, recordFields } from './common'

/**
 * Built-in roles, from least to most: a viewer reads the library, an editor
 * changes it, an admin also runs the team (users, others' tokens, connectors'
 * config, code and secrets, the audit log, backups). What each may do is data
 * in the API server (its permission table), not scattered checks.
 */
export const ROLES = ['viewer', 'editor', 'admin'] as const
export const Role = z.enum(ROLES).meta({ id: 'Role', description: 'viewer reads; editor changes the library; admin also manages users, connectors and the audit log' })
export type Role = z.infer<typeof Role>

/**
 * A user name: what one signs in with. Lower-case letters, digits and `. _ -`,
 * starting with a letter or digit; compared as written (it is already folded).
 */
export const Username = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, { error: 'a user name is letters, digits, `.`, `_` or `-`, starting with a letter or digit' })
  .meta({ example: 'ada' })

/**
 * A password as sent. At least 8 characters (NIST SP 800-63B's floor) and at
 * most 256: the length bounds the hashing work one request can ask for, so a
 * 10 MB password is a 400, never a long hash.
 */
export const Password = z.string().min(8, { error: 'a password has at least 8 characters' }).max(256, { error: 'a password has at most 256 characters' }).meta({ writeOnly: true, format: 'password' })

/** An account as the API shows it: never its password hash. */
export const User = z
  .object({
    id: idSchema('user'),
    username: z.string(),
    displayName: z.string(),
    role: Role,
    disabled: z.boolean().meta({ description: 'A disabled account cannot sign in; its sessions and tokens stop working. Its history keeps its name.' }),
    lastLoginAt: Timestamp.nullable(),
    ...recordFields,
  })
  .meta({ id: 'User' })
export type User = z.infer<typeof User>

/** Body of `POST /api/users`. */
export const UserCreate = z
  .strictObject({
    username: Username,
    password: Password,
    role: Role,
    displayName: z.string().trim().min(1).max(200).optional().meta({ description: 'Defaults to the user name' }),
  })
  .meta({ id: 'UserCreate' })
export type UserCreate = z.output<typeof UserCreate>

/** Body of `PATCH /api/users/:id` (admins): role, display name, disable, or a new password (a reset). */
export const UserPatch = z
  .strictObject({
    displayName: z.string().trim().min(1).max(200),
    role: Role,
    disabled: z.boolean(),
    password: Password.meta({ description: 'A reset by an admin: the user’s sessions end' }),
  })
  .partial()
  .meta({ id: 'UserPatch' })
export type UserPatch = z.output<typeof UserPatch>

/** Query of `GET /api/users`. */
export const UserListQuery = PageQuery.extend({
  q: z.string().trim().min(1).max(64).optional().meta({ description: 'Part of a user name or display name' }),
})

/** Body of `POST /api/auth/password`: a user changes their own password. */
export const PasswordChange = z
  .strictObject({ currentPassword: z.string().max(256), newPassword: Password })
  .meta({ id: 'PasswordChange' })
export type PasswordChange = z.output<typeof PasswordChange>

/** Body of `POST /api/auth/login`. */
export const LoginRequest = z.strictObject({ username: z.string().trim().toLowerCase().min(1).max(64), password: z.string().min(1).max(256) }).meta({ id: 'LoginRequest' })
export type LoginRequest = z.output<typeof LoginRequest>

/** Who a credential acts as. */
export const ACTOR_KINDS = ['user', 'token', 'api-key', 'local', 'cli', 'connector', 'system', 'anonymous'] as const
export const ActorKind = z.enum(ACTOR_KINDS)
export type ActorKind = z.infer<typeof ActorKind>

/** How a change came in. */
export const CHANNELS = ['web', 'api', 'kicad', 'cli', 'system'] as const
export const Channel = z.enum(CHANNELS)
export type Channel = z.infer<typeof Channel>

/**
 * Who made a change, as recorded: the name is kept as it was then, so a
 * later rename or a disabled account leaves history readable.
 */
export const Actor = z
  .object({
    kind: ActorKind,
    id: z.string().nullable().meta({ description: 'The user (or token) id; null for the API key, local mode and the command line' }),
    name: z.string(),
  })
  .meta({ id: 'Actor' })
export type Actor = z.infer<typeof Actor>

/** `GET /api/auth/me`: who is calling, and what the interface should offer them. */
export const Me = z
  .object({
    user: User.nullable().meta({ description: 'Null for the API key and for keyless loopback mode' }),
    actor: Actor,
    role: Role,
    permissions: z.array(z.string()).meta({ description: 'What this credential may do now (see the OpenAPI document’s security lines)' }),
    authRequired: z.boolean().meta({ description: 'Whether this server asks for credentials (false: keyless loopback mode)' }),
  })
  .meta({ id: 'Me' })
export type Me = z.infer<typeof Me>

/** What a token may do, at most: intersected with its owner's role at each use. */
export const TokenScope = z.enum(['read', 'write', 'admin']).meta({ id: 'TokenScope', description: 'read: as a viewer; write: as an editor; admin: as an admin (never more than the owner’s role now)' })
export type TokenScope = z.infer<typeof TokenScope>

/** An API token as listed: never the token itself, only its first characters. */
export const ApiToken = z
  .object({
    id: idSchema('token'),
    name: z.string(),
    scope: TokenScope,
    prefix: z.string().meta({ description: 'The first characters of the token, to tell tokens apart', example: 'clt_3kF9' }),
    owner: z.object({ id: idSchema('user').nullable(), username: z.string() }),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable().meta({ description: 'Kept to about a minute' }),
  })
  .meta({ id: 'ApiToken' })
export type ApiToken = z.infer<typeof ApiToken>

/** Body of `POST /api/tokens`. */
export const TokenCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    scope: TokenScope,
    expiresAt: Timestamp.nullable().optional().meta({ description: 'When it stops working; none: until revoked' }),
  })
  .meta({ id: 'TokenCreate' })
export type TokenCreate = z.output<typeof TokenCreate>

/** The answer to `POST /api/tokens`: the only time the token is shown. */
export const TokenCreated = ApiToken.extend({ token: z.string().meta({ description: 'Shown once; only its hash is stored', example: 'clt_3kF9…' }) }).meta({
  id: 'TokenCreated',
})
export type TokenCreated = z.infer<typeof TokenCreated>

/** Query of `GET /api/tokens`. */
export const TokenListQuery = PageQuery.extend({
  all: z.stringbool().default(false).meta({ description: 'Admins: every user’s tokens, with their owners' }),
})
