import type { ExternalRef, ExternalRefKind, ExternalRefStore } from '../types'
import { now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

/** Keys per statement: far below either engine's parameter limit (decision 0206). */
const KEYS_PER_STATEMENT = 200

/** The peers' keys of imported records (decision 0640). */
export const externalRefs: StoreRepo<ExternalRefStore> = {
  async lookup(ex, source, kind, keys) {
    const out: ExternalRef[] = []
    const unique = [...new Set(keys)]
    for (let i = 0; i < unique.length; i += KEYS_PER_STATEMENT) {
      const slice = unique.slice(i, i + KEYS_PER_STATEMENT)
      const rows = await ex.all<{ key: string; target: string }>(`SELECT key, target FROM external_refs WHERE source = ? AND kind = ? AND key IN (${slice.map(() => '?').join(', ')})`, [source, kind, ...slice])
      for (const r of rows) out.push({ source, kind, key: r.key, target: r.target })
    }
    return out
  },
  async upsert(ex, refs) {
    const at = now()
    const before: Array<string | null> = []
    for (const r of refs) {
      const had = await ex.get<{ target: string }>('SELECT target FROM external_refs WHERE source = ? AND kind = ? AND key = ?', [r.source, r.kind, r.key])
      before.push(had ? had.target : null)
      await ex.run(
        'INSERT INTO external_refs (source, kind, key, target, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (source, kind, key) DO UPDATE SET target = excluded.target, updated_at = excluded.updated_at',
        [r.source, r.kind, r.key, r.target, at],
      )
    }
    return before
  },
  async remove(ex, refs) {
    for (const r of refs) await ex.run('DELETE FROM external_refs WHERE source = ? AND kind = ? AND key = ?', [r.source, r.kind, r.key])
  },
  async listForTarget(ex, kind, target) {
    const rows = await ex.all<{ source: string; key: string }>('SELECT source, key FROM external_refs WHERE kind = ? AND target = ? ORDER BY source, key', [kind, target])
    return rows.map((r) => ({ source: r.source, kind: kind as ExternalRefKind, key: r.key, target }))
  },
}

/** How each method uses the database (Access). */
export const externalRefAccess = { lookup: 'snapshot', upsert: 'write', remove: 'write', listForTarget: 'read' } as const satisfies StoreAccess<ExternalRefStore>
