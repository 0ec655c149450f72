import { expect } from 'vitest'
import { testStorage } from '../../testing'
import { computeComponents } from '../stores/component-core'
import { createSqliteStorage, type SqliteStorage } from './storage'

// Reads show the view stored with the history event each component's
// view_seq points at. After every contract test, that must be the
// component's latest event with a view, and the view must equal the one
// computed from the tables: a write path that changes what a component shows
// without touchComponent, or an event the view_seq trigger misses, fails here.
testStorage('sqlite', async () => {
  const storage = await createSqliteStorage()
  const close = storage.close.bind(storage)
  return Object.assign(storage, {
    close: async () => {
      await _assertStoredViewsCurrent(storage)
      await close()
    },
  })
})

async function _assertStoredViewsCurrent(storage: SqliteStorage): Promise<void> {
  await storage.database.run(async (ex) => {
    // Straight from the tables, not through loadComponents (which computes a missing view).
    const rows = ex.all<{ id: string; view: string | null; latest: number | null; viewSeq: number | null }>(
      `SELECT c.id AS id, e.snapshot AS view, c.view_seq AS viewSeq,
         (SELECT max(x.seq) FROM component_events x WHERE x.component_id = c.id AND x.snapshot IS NOT NULL) AS latest
       FROM components c LEFT JOIN component_events e ON e.seq = c.view_seq WHERE c.deleted_at IS NULL`,
    )
    const computed = await computeComponents(ex, rows.map((r) => r.id))
    for (const row of rows) {
      expect(row.viewSeq, `view_seq of ${row.id}`).toBe(row.latest)
      expect(row.view === null ? null : JSON.parse(row.view), `stored view of ${row.id}`).toEqual(computed.get(row.id))
    }
  })
}
