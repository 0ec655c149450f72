import { describe, expect, it } from 'vitest'
import type { AuditQuery } from '../../schemas/audit'
import type { SqlExecutor, SqlParam } from '../../storage/_internal/sql-executor'
import { AUDIT_GENESIS, auditHash } from '../../storage/stores/audit-store'
import type { AuditInput, Storage } from '../../storage/types'

const ada = { kind: 'user', id: 'usr_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ada' } as const
const ci = { kind: 'token', id: 'tok_01JD7W3T9X4QF5B8S2M6K0N1PZ', name: 'ci' } as const
const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute)).toISOString()
const q = (over: Partial<AuditQuery> = {}): AuditQuery => ({ limit: 100, ...over })

/** An entry to append: a component update by ada, through the web interface, unless `over` says otherwise. */
const input = (over: Partial<AuditInput> = {}): AuditInput => ({
  actor: ada,
  channel: 'web',
  requestId: 'req-1',
  action: 'component.update',
  target: { type: 'component', id: 'cmp_1' },
  comment: null,
  details: null,
  ...over,
})

/** The audit trail: a hash chain that is appended to, listed, verified and pruned, never edited. */
export function auditStoreSuite(storage: () => Storage): void {
  describe('audit store', () => {
    it('appends entries chained by hash: the first follows 64 zeros, each next the hash before it', async () => {
      const s = storage()
      const first = await s.audit.append(input({ comment: 'new resistor', details: { fields: ['name'], nested: { b: 1, a: [true, null] } } }))
      const second = await s.audit.append(input({ actor: ci, channel: 'api', requestId: null, action: 'token.create', target: null }))
      expect(first).toMatchObject({ seq: 1, prevHash: AUDIT_GENESIS, actor: ada, channel: 'web', comment: 'new resistor', target: { type: 'component', id: 'cmp_1' } })
      expect(second).toMatchObject({ seq: 2, prevHash: first.hash, actor: ci, requestId: null, target: null, details: null })
      for (const entry of [first, second]) {
        expect(entry.hash).toMatch(/^[0-9a-f]{64}$/)
        const { hash, ...fields } = entry
        expect(auditHash(fields)).toBe(hash)
      }
      expect(first.hash).not.toBe(second.hash)
      // What is read back is what was appended, and still hashes the same.
      expect((await s.audit.list(q())).items).toEqual([second, first])
    })

    it('hashes every field: changing any one changes the hash', async () => {
      const entry = await storage().audit.append(input({ comment: 'c', details: { n: 1, m: 2 } }))
      const { hash, ...fields } = entry
      const variants = [
        { ...fields, prevHash: '1'.repeat(64) },
        { ...fields, seq: 2 },
        { ...fields, at: at(1) },
        { ...fields, actor: { ...ada, kind: 'token' as const } },
        { ...fields, actor: { ...ada, id: null } },
        { ...fields, actor: { ...ada, name: 'eve' } },
        { ...fields, channel: 'api' as const },
        { ...fields, requestId: 'req-2' },
        { ...fields, action: 'component.delete' },
        { ...fields, target: { type: 'tag', id: 'cmp_1' } },
        { ...fields, target: { type: 'component', id: 'cmp_2' } },
        { ...fields, comment: null },
        { ...fields, details: { n: 1, m: 3 } },
        { ...fields, details: null },
      ]
      for (const variant of variants) expect(auditHash(variant)).not.toBe(hash)
      // Key order is not content: the same details written in another order hash the same.
      expect(auditHash({ ...fields, details: { m: 2, n: 1 } })).toBe(hash)
    })

    it('lists newest first with filters by actor, actor kind, action or action prefix, target and time', async () => {
      const s = storage()
      await s.audit.append(input({ at: at(0), action: 'auth.login' }))
      await s.audit.append(input({ at: at(1), actor: ci, channel: 'api', action: 'component.update', target: { type: 'component', id: 'cmp_2' } }))
      await s.audit.append(input({ at: at(2), action: 'auth.login-failed', target: null }))
      await s.audit.append(input({ at: at(3), action: 'authz.refused' }))
      await s.audit.append(input({ at: at(4), actor: { kind: 'api-key', id: null, name: 'api key' }, channel: 'api', action: 'component.delete' }))
      const seqs = async (over: Partial<AuditQuery>) => {
        const page = await s.audit.list(q(over))
        expect(page.total).toBe(page.items.length)
        return page.items.map((e) => e.seq)
      }
      expect(await seqs({})).toEqual([5, 4, 3, 2, 1])
      expect(await seqs({ actor: 'ada' })).toEqual([4, 3, 1])
      expect(await seqs({ actor: ci.id })).toEqual([2])
      expect(await seqs({ actorKind: 'api-key' })).toEqual([5])
      expect(await seqs({ action: 'auth.login' })).toEqual([1])
      // A prefix ends with a dot, and is a prefix of whole words: `authz.refused` is not under `auth.`.
      expect(await seqs({ action: 'auth.' })).toEqual([3, 1])
      expect(await seqs({ action: 'AUTH.' })).toEqual([])
      expect(await seqs({ action: 'component.' })).toEqual([5, 2])
      expect(await seqs({ targetId: 'cmp_1' })).toEqual([5, 4, 1])
      expect(await seqs({ since: at(1), until: at(3) })).toEqual([3, 2])
      expect(await seqs({ since: at(4) })).toEqual([5])
      expect(await seqs({ actor: 'ada', action: 'auth.', since: at(1) })).toEqual([3])
    })

    it('pages with a cursor, keeping the total of the filter', async () => {
      const s = storage()
      for (let i = 0; i < 7; i++) await s.audit.append(input({ action: i % 2 ? 'component.update' : 'component.create' }))
      const first = await s.audit.list(q({ limit: 2, action: 'component.create' }))
      expect([first.items.map((e) => e.seq), first.total]).toEqual([[7, 5], 4])
      const second = await s.audit.list(q({ limit: 2, action: 'component.create', cursor: first.nextCursor! }))
      expect([second.items.map((e) => e.seq), second.total, second.nextCursor]).toEqual([[3, 1], 4, null])
      await expect(s.audit.list(q({ cursor: 'nonsense' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
    })

    it('verifies an empty trail and an intact one', async () => {
      const s = storage()
      expect(await s.audit.verify()).toEqual({ intact: true, checked: 0, firstSeq: null, brokenAt: null })
      for (let i = 0; i < 3; i++) await s.audit.append(input({ details: { i } }))
      expect(await s.audit.verify()).toEqual({ intact: true, checked: 3, firstSeq: 1, brokenAt: null })
    })

    it('finds a changed entry, and one whose hash was made again to match (the next one no longer follows)', async () => {
      const s = storage()
      for (let i = 0; i < 4; i++) await s.audit.append(input({ details: { i } }))
      await _sql(s, 'UPDATE audit_log SET comment = ? WHERE seq = 2', ['nothing to see'])
      expect(await s.audit.verify()).toEqual({ intact: false, checked: 2, firstSeq: 1, brokenAt: 2 })
      const { hash: _old, ...fields } = (await s.audit.list(q())).items.find((e) => e.seq === 2)!
      await _sql(s, 'UPDATE audit_log SET hash = ? WHERE seq = 2', [auditHash(fields)])
      expect(await s.audit.verify()).toEqual({ intact: false, checked: 3, firstSeq: 1, brokenAt: 3 })
    })

    it('finds a removed entry', async () => {
      const s = storage()
      for (let i = 0; i < 4; i++) await s.audit.append(input({ details: { i } }))
      await _sql(s, 'DELETE FROM audit_log WHERE seq = 3', [])
      expect(await s.audit.verify()).toMatchObject({ intact: false, brokenAt: 4 })
    })

    it('walks a trail longer than one read, and finds a change far along it', async () => {
      const s = storage()
      await s.transaction(async (tx) => {
        for (let i = 0; i < 1100; i++) await tx.audit.append(input({ details: { i } }))
      })
      expect(await s.audit.verify()).toEqual({ intact: true, checked: 1100, firstSeq: 1, brokenAt: null })
      await _sql(s, 'UPDATE audit_log SET actor_name = ? WHERE seq = 1050', ['eve'])
      expect(await s.audit.verify()).toEqual({ intact: false, checked: 1050, firstSeq: 1, brokenAt: 1050 })
    })

    it('prunes the entries before a time and records the pruning; the kept chain still verifies', async () => {
      const s = storage()
      for (let i = 0; i < 5; i++) await s.audit.append(input({ at: at(i) }))
      const newest = (await s.audit.list(q({ limit: 1 }))).items[0]!
      const { removed, entry } = await s.audit.prune(at(3), input({ action: 'audit.prune', target: null, details: { by: 'retention' } }))
      expect(removed).toBe(3)
      expect(entry).toMatchObject({ seq: 6, prevHash: newest.hash, action: 'audit.prune', details: { by: 'retention', removed: 3, before: at(3) } })
      expect((await s.audit.list(q())).items.map((e) => e.seq)).toEqual([6, 5, 4])
      expect(await s.audit.verify()).toEqual({ intact: true, checked: 3, firstSeq: 4, brokenAt: null })
      // Appending goes on from the pruning.
      expect(await s.audit.append(input())).toMatchObject({ seq: 7, prevHash: entry.hash })
      expect(await s.audit.verify()).toMatchObject({ intact: true, checked: 4, firstSeq: 4 })
    })

    it('prunes every entry: the pruning alone is kept, chained to the hash of the last one removed', async () => {
      const s = storage()
      for (let i = 0; i < 3; i++) await s.audit.append(input({ at: at(i) }))
      const newest = (await s.audit.list(q({ limit: 1 }))).items[0]!
      const { removed, entry } = await s.audit.prune(at(59), input({ at: at(59), action: 'audit.prune' }))
      expect([removed, entry.seq, entry.prevHash, entry.details]).toEqual([3, 4, newest.hash, { removed: 3, before: at(59) }])
      expect(await s.audit.verify()).toEqual({ intact: true, checked: 1, firstSeq: 4, brokenAt: null })
    })

    it('prunes only a prefix of the chain, even when times are out of order', async () => {
      const s = storage()
      await s.audit.append(input({ at: at(0) }))
      await s.audit.append(input({ at: at(5) }))
      // Written by a server whose clock runs behind: older than the entry before it.
      await s.audit.append(input({ at: at(1) }))
      const { removed } = await s.audit.prune(at(2), input({ action: 'audit.prune' }))
      expect(removed).toBe(1)
      expect((await s.audit.list(q())).items.map((e) => e.seq)).toEqual([4, 3, 2])
      expect(await s.audit.verify()).toMatchObject({ intact: true, firstSeq: 2 })
    })
  })
}

/**
 * Runs a statement on the storage's engine, outside the stores: how a test
 * tampers with the trail. Both engines expose theirs as `database`.
 */
async function _sql(s: Storage, sql: string, params: SqlParam[]): Promise<void> {
  const engine = (s as Storage & { database?: { run(fn: (ex: SqlExecutor) => unknown): Promise<unknown> } }).database
  if (!engine) throw new Error(`storage ${s.name} exposes no database to run SQL on`)
  await engine.run((ex) => ex.run(sql, params))
}
