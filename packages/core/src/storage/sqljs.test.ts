import initSqlJs from 'sql.js'
import { expect } from 'vitest'
import { StatementCache } from './_internal/sql-executor'
import { testStorage } from '../testing'
import { computeComponents, loadComponents } from './sqljs/component-core'
import createSqlJsStorage, { type SqlJsStorage } from './sqljs'

// Reads show the view stored with each component's latest history event
// (loadComponents). After every contract test, each live component's stored
// view must equal the view computed from the tables: a write path that
// changes what a component shows without touchComponent fails here.
testStorage('sqljs', async () => {
  const storage = await createSqlJsStorage()
  const close = storage.close.bind(storage)
  return Object.assign(storage, {
    close: async () => {
      await _assertStoredViewsCurrent(storage)
      await close()
    },
  })
})

async function _assertStoredViewsCurrent(storage: SqlJsStorage): Promise<void> {
  // On a copy of the database file, read with the storage's own queries.
  const db = new (await initSqlJs()).Database(await storage.exportBytes())
  try {
    const ex = new StatementCache(db)
    const ids = ex.all<{ id: string }>('SELECT id FROM components WHERE deleted_at IS NULL').map((r) => r.id)
    const stored = loadComponents(ex, ids)
    const computed = computeComponents(ex, ids)
    for (const id of ids) expect(stored.get(id), `stored view of ${id}`).toEqual(computed.get(id))
  } finally {
    db.close()
  }
}
