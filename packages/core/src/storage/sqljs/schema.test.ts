import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import initSqlJs, { type Database } from 'sql.js'
import { afterEach, describe, expect, it } from 'vitest'
import createSqlJsStorage from '../sqljs'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('schema migrations', () => {
  it('gives a library from before view_seq the views it showed, and keeps them current after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-schema-'))
    dirs.push(dir)
    const before = await createSqlJsStorage({ dir })
    const a = await before.components.create({ name: 'R 10k', ipn: 'R-1' })
    const b = await before.components.create({ name: 'C 100n', ipn: 'C-1' })
    const gone = await before.components.create({ name: 'L 1u', ipn: 'L-1' })
    await before.components.update(a.id, { description: 'thick film' })
    await before.components.delete(gone.id)
    await before.close()

    // The same library as the schema version before view_seq (5) held it: no view_seq, no
    // trigger, and none of the later steps (each undone here, newest first).
    const file = join(dir, 'complib.sqlite')
    const db = new (await initSqlJs()).Database(readFileSync(file))
    _undoRunCounts(db)
    _undoIdentifierKeys(db)
    db.run('DROP TRIGGER component_events_view')
    db.run('ALTER TABLE components DROP COLUMN view_seq')
    db.run(`UPDATE meta SET value = '5' WHERE key = 'schema_version'`)
    writeFileSync(file, db.export())
    db.close()
    rmSync(join(dir, 'complib.sqlite.sum'))

    const after = await createSqlJsStorage({ dir })
    try {
      const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
      expect(json((await after.components.getJson(a.id)).json)).toMatchObject({ id: a.id, description: 'thick film', version: 2 })
      const page = await after.components.listJson({ limit: 50, sort: 'id', includeDeleted: false })
      expect((json(page.json) as Array<{ id: string }>).map((c) => c.id)).toEqual([a.id, b.id].sort())
      // Backfilled, so reads find the stored view rather than computing one.
      const copy = new (await initSqlJs()).Database(await after.exportBytes())
      expect(copy.exec('SELECT count(*) FROM components WHERE view_seq IS NULL')[0]!.values).toEqual([[0]])
      copy.close()
      await after.components.update(b.id, { description: 'X7R' })
      expect(json((await after.components.getJson(b.id)).json)).toMatchObject({ description: 'X7R', version: 2 })
      const deleted = await after.components.getJson(gone.id, { includeDeleted: true })
      expect(json(deleted.json)).toMatchObject({ id: gone.id, version: 2, deletedAt: expect.any(String) })
    } finally {
      await after.close()
    }
  })
})

/** Undoes addIdentifierKeys (identifier-keys.ts). */
function _undoIdentifierKeys(db: Database): void {
  for (const index of ['components_live_ipn_key', 'tags_name_key', 'manufacturers_name_key', 'parameter_types_name_key', 'locations_sibling_name_key']) db.run(`DROP INDEX ${index}`)
  db.run('CREATE UNIQUE INDEX components_live_ipn ON components (ipn) WHERE deleted_at IS NULL')
  db.run('ALTER TABLE components DROP COLUMN ipn_key')
  for (const table of ['tags', 'manufacturers', 'parameter_types', 'locations']) db.run(`ALTER TABLE ${table} DROP COLUMN name_key`)
  db.run('ALTER TABLE manufacturers DROP COLUMN alias_keys')
}

/** Undoes the run counts step (sent and skipped per batch, skipped per run). */
function _undoRunCounts(db: Database): void {
  for (const column of ['sent', 'skipped']) db.run(`ALTER TABLE run_batches DROP COLUMN ${column}`)
  db.run('ALTER TABLE runs DROP COLUMN entities_skipped')
}
