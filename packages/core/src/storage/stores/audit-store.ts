import { createHash } from 'node:crypto'
import type { Actor, Channel } from '../../schemas/account'
import type { AuditEntry } from '../../schemas/audit'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { AuditInput, AuditStore } from '../types'
import { decodeCursor, encodeCursor, now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

/** The prevHash of the first entry ever. */
export const AUDIT_GENESIS = '0'.repeat(64)

/** Entries read at a time by verify: a long trail is walked, never loaded whole. */
const VERIFY_CHUNK = 500

/**
 * The audit trail: append-only, each entry chained to the one before by its
 * hash, so that a changed, removed or inserted entry shows (verify). Nothing
 * here updates an entry, and only prune deletes: the oldest ones, as a whole
 * prefix of the chain, recording itself as a new entry.
 */
export const audit = {
  append: async (ex, entry) => await _append(ex, entry),

  async list(ex, query) {
    const where: string[] = []
    const params: SqlParam[] = []
    if (query.actor !== undefined) {
      where.push('(actor_name = ? OR actor_id = ?)')
      params.push(query.actor, query.actor)
    }
    if (query.actorKind !== undefined) {
      where.push('actor_kind = ?')
      params.push(query.actorKind)
    }
    if (query.action !== undefined) {
      // A prefix compared as written: LIKE ignores case on SQLite and not on PostgreSQL.
      if (query.action.endsWith('.')) where.push('substr(action, 1, ?) = ?') && params.push(query.action.length, query.action)
      else where.push('action = ?') && params.push(query.action)
    }
    if (query.targetId !== undefined) {
      where.push('target_id = ?')
      params.push(query.targetId)
    }
    if (query.since !== undefined) where.push('at >= ?') && params.push(query.since)
    if (query.until !== undefined) where.push('at < ?') && params.push(query.until)
    const filter = where.length ? ` WHERE ${where.join(' AND ')}` : ''
    const total = (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM audit_log${filter}`, params))!.n
    if (query.cursor) {
      where.push('seq < ?')
      params.push(Number(decodeCursor(query.cursor, 1)[0]))
    }
    const rows = await ex.all<_Row>(`SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`, [...params, query.limit + 1])
    const more = rows.length > query.limit
    if (more) rows.pop()
    return { items: rows.map(_entry), total, nextCursor: more ? encodeCursor([rows.at(-1)!.seq]) : null }
  },

  async verify(ex) {
    let checked = 0
    let firstSeq: number | null = null
    let previous: string | null = null
    let after = 0
    for (;;) {
      const rows = await ex.all<_Row>('SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?', [after, VERIFY_CHUNK])
      for (const row of rows) {
        const entry = _entry(row)
        checked++
        firstSeq ??= entry.seq
        // The oldest kept entry's prevHash is the anchor: what it follows was pruned.
        if ((previous !== null && entry.prevHash !== previous) || auditHash(entry) !== entry.hash) return { intact: false, checked, firstSeq, brokenAt: entry.seq }
        previous = entry.hash
      }
      if (rows.length < VERIFY_CHUNK) return { intact: true, checked, firstSeq, brokenAt: null }
      after = rows.at(-1)!.seq
    }
  },

  async prune(ex, before, entry) {
    // A prefix of the chain goes: everything before the first entry at or after `before`. Were
    // entries' times out of order (clocks of servers sharing a database), deleting by time alone
    // would cut holes that verify reports as tampering.
    const keep = await ex.get<{ seq: number | null }>('SELECT min(seq) AS seq FROM audit_log WHERE at >= ?', [before])
    // The entry appended below chains to the newest, which the deletion may take: read it first.
    const last = await _last(ex)
    const { changes: removed } = keep?.seq != null ? await ex.run('DELETE FROM audit_log WHERE seq < ?', [keep.seq]) : await ex.run('DELETE FROM audit_log')
    return { removed, entry: await _append(ex, { ...entry, details: { ...entry.details, removed, before } }, last) }
  },
} satisfies StoreRepo<AuditStore>

/** How each method uses the database (Access). */
export const auditAccess = { append: 'write', list: 'snapshot', verify: 'snapshot', prune: 'write' } as const satisfies StoreAccess<AuditStore>

/**
 * The hash of an entry: SHA-256 (hex) over a canonical JSON array of its
 * prevHash and every field it records, objects with their keys sorted. What
 * append stores and what verify recomputes.
 */
export function auditHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(JSON.stringify(_columns(entry))).digest('hex')
}

/**
 * The stored columns of an entry but its hash, in the order of audit_log's
 * INSERT: what the hash covers and what is written are one list. Details are
 * JSON with every object's keys sorted, so the text (and the hash) does not
 * depend on the order a caller built them in.
 */
function _columns(entry: Omit<AuditEntry, 'hash'>): SqlParam[] {
  return [
    entry.seq,
    entry.at,
    entry.actor.kind,
    entry.actor.id,
    entry.actor.name,
    entry.channel,
    entry.requestId,
    entry.action,
    entry.target?.type ?? null,
    entry.target?.id ?? null,
    entry.comment,
    entry.details === null ? null : JSON.stringify(entry.details, _sortedKeys),
    entry.prevHash,
  ]
}

/** A JSON.stringify replacer that writes every object's keys in sorted order. */
function _sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]))
}

interface _Row {
  seq: number
  at: string
  actor_kind: Actor['kind']
  actor_id: string | null
  actor_name: string
  channel: Channel
  request_id: string | null
  action: string
  target_type: string | null
  target_id: string | null
  comment: string | null
  details: string | null
  prev_hash: string
  hash: string
}

/** The newest entry's seq and hash; none before the first entry ever. */
async function _last(ex: SqlExecutor): Promise<{ seq: number; hash: string } | undefined> {
  return await ex.get<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1')
}

async function _append(ex: SqlExecutor, input: AuditInput, last?: { seq: number; hash: string }): Promise<AuditEntry> {
  last ??= await _last(ex)
  const fields: Omit<AuditEntry, 'hash'> = {
    seq: (last?.seq ?? 0) + 1,
    at: input.at ?? now(),
    actor: { kind: input.actor.kind, id: input.actor.id, name: input.actor.name },
    channel: input.channel,
    requestId: input.requestId,
    action: input.action,
    target: input.target ? { type: input.target.type, id: input.target.id } : null,
    comment: input.comment,
    // As it will read back from its JSON text (undefined members gone), so the hash recomputes.
    details: input.details === null ? null : (JSON.parse(JSON.stringify(input.details)) as Record<string, unknown>),
    prevHash: last?.hash ?? AUDIT_GENESIS,
  }
  const entry: AuditEntry = { ...fields, hash: auditHash(fields) }
  await ex.run(
    `INSERT INTO audit_log (seq, at, actor_kind, actor_id, actor_name, channel, request_id, action, target_type, target_id, comment, details, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [..._columns(fields), entry.hash],
  )
  return entry
}

function _entry(r: _Row): AuditEntry {
  return {
    seq: r.seq,
    at: r.at,
    actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
    channel: r.channel,
    requestId: r.request_id,
    action: r.action,
    target: r.target_type !== null && r.target_id !== null ? { type: r.target_type, id: r.target_id } : null,
    comment: r.comment,
    details: r.details === null ? null : (JSON.parse(r.details) as Record<string, unknown>),
    prevHash: r.prev_hash,
    hash: r.hash,
  }
}
