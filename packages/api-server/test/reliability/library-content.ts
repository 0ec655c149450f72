import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { expect } from 'vitest'
import { sendRaw } from './raw-http'

/**
 * The whole library as its backup holds it, every table's rows but the audit
 * trail's and the search indexes': what a request that must change nothing
 * leaves as it was. (The trail records refusals, and each backup download, by
 * design; the FTS5 tables' segments are merged in the background, a while
 * after writes, so their pages change with nothing written.)
 */
export async function libraryContent(base: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await sendRaw(base, { method: 'GET', path: '/api/exports/backup', headers })
  expect(res.status).toBe(200)
  const dir = mkdtempSync(join(tmpdir(), 'complib-library-content-'))
  try {
    writeFileSync(join(dir, 'complib.db'), res.bytes)
    const storage = await createSqliteStorage({ dir })
    try {
      const db = storage.database.db
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name NOT LIKE '%grams%' AND name NOT LIKE 'mpn_words%' AND name <> 'audit_log' ORDER BY name`).all() as Array<{ name: string }>
      return JSON.stringify(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]), (_, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v))
    } finally {
      await storage.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
