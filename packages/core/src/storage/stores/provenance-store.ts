import type { FieldProvenance } from '../../schemas/source'
import type { ProvenanceStore } from '../types'
import type { StoreAccess, StoreRepo } from './repo'

/** Where each field of a component was last filled from (decision 1603). */
export const provenance = {
  async list(ex, componentId) {
    const rows = await ex.all<_Row>(
      'SELECT p.*, s.id AS live_source FROM field_provenance p LEFT JOIN sources s ON s.id = p.source_id WHERE p.component_id = ? ORDER BY p.field',
      [componentId],
    )
    return rows.map((r): FieldProvenance => ({ field: r.field, sourceId: r.live_source, sourceType: r.source_type, sourceName: r.source_name, ref: r.ref, at: r.at }))
  },

  async record(ex, componentId, entries) {
    for (const e of entries) {
      await ex.run(
        `INSERT INTO field_provenance (component_id, field, source_id, source_type, source_name, ref, at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (component_id, field) DO UPDATE SET source_id = excluded.source_id, source_type = excluded.source_type, source_name = excluded.source_name, ref = excluded.ref, at = excluded.at`,
        [componentId, e.field, e.sourceId, e.sourceType, e.sourceName, e.ref, e.at],
      )
    }
  },
} satisfies StoreRepo<ProvenanceStore>

/** How each method uses the database (Access). */
export const provenanceAccess = { list: 'read', record: 'write' } as const satisfies StoreAccess<ProvenanceStore>

interface _Row {
  field: string
  source_id: string
  live_source: string | null
  source_type: string
  source_name: string
  ref: string
  at: string
}
