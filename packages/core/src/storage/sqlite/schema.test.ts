import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from './engine/driver'
import { afterEach, describe, expect, it } from 'vitest'
import { createSqliteStorage } from '../sqlite/storage'
import { SCHEMA_VERSION_BEFORE_CATEGORY_RECORDS, SCHEMA_VERSION_BEFORE_KICAD_FIELDS } from './schema'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('schema migrations', () => {
  it('gives a library from before view_seq the views it showed, and keeps them current after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-schema-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    const a = await before.components.create({ name: 'R 10k', ipn: 'R-1' })
    const b = await before.components.create({ name: 'C 100n', ipn: 'C-1' })
    const gone = await before.components.create({ name: 'L 1u', ipn: 'L-1' })
    await before.components.update(a.id, { description: 'thick film' })
    await before.components.delete(gone.id)
    await before.close()

    // The same library as the schema version before view_seq (5) held it: no view_seq, no
    // trigger, and none of the later steps (each undone here, newest first).
    const db = openSqlite(join(dir, 'complib.db'))
    _undoTemplates(db)
    _undoAccounts(db)
    db.exec('DROP TABLE categories')
    _undoKicadFields(db)
    db.exec('DROP INDEX components_cmp_number')
    _undoRunCounts(db)
    _undoIdentifierKeys(db)
    db.exec('DROP TRIGGER component_events_view')
    db.exec('ALTER TABLE components DROP COLUMN view_seq')
    db.exec(`UPDATE meta SET value = '5' WHERE key = 'schema_version'`)
    db.close()

    const after = await createSqliteStorage({ dir })
    try {
      const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
      expect(json((await after.components.getJson(a.id)).json)).toMatchObject({ id: a.id, description: 'thick film', version: 2 })
      const page = await after.components.listJson({ limit: 50, sort: 'id', includeDeleted: false })
      expect((json(page.json) as Array<{ id: string }>).map((c) => c.id)).toEqual([a.id, b.id].sort())
      // Backfilled, so reads find the stored view rather than computing one.
      expect(after.database.db.prepare('SELECT count(*) AS n FROM components WHERE view_seq IS NULL').get()).toEqual({ n: 0 })
      await after.components.update(b.id, { description: 'X7R' })
      expect(json((await after.components.getJson(b.id)).json)).toMatchObject({ description: 'X7R', version: 2 })
      const deleted = await after.components.getJson(gone.id, { includeDeleted: true })
      expect(json(deleted.json)).toMatchObject({ id: gone.id, version: 2, deletedAt: expect.any(String) })
    } finally {
      await after.close()
    }
  })

  it('gives the views and history of a library from before the KiCad fields the defaults, byte for byte as a new view', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-schema-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    const a = await before.components.create({ name: 'R 10k', ipn: 'R-1', description: 'a "createdAt": not a key' })
    await before.components.update(a.id, { description: 'thick film' })
    await before.close()

    const db = openSqlite(join(dir, 'complib.db'))
    _undoTemplates(db)
    _undoAccounts(db)
    db.exec('DROP TABLE categories')
    _undoKicadFields(db)
    const old = db.prepare('SELECT snapshot FROM component_events ORDER BY seq').all() as Array<{ snapshot: string }>
    expect(old.every((e) => !e.snapshot.includes('kicadValue'))).toBe(true)
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION_BEFORE_KICAD_FIELDS))
    db.close()

    const after = await createSqliteStorage({ dir })
    try {
      const view = Buffer.from((await after.components.getJson(a.id)).json).toString('utf8')
      const current = await after.components.get(a.id)
      expect(current).toMatchObject({ description: 'thick film', kicadValue: null, excludeFromBom: false, excludeFromBoard: false, excludeFromSim: false, version: 2 })
      // What the view builder makes now, in the same key order.
      expect(view).toBe(JSON.stringify(current))
      const history = await after.components.history(a.id, { limit: 10 })
      expect(history.items.map((e) => [e.snapshot.description, e.snapshot.excludeFromSim])).toEqual([
        ['thick film', false],
        ['a "createdAt": not a key', false],
      ])
      const changed = await after.components.update(a.id, { excludeFromBom: true })
      expect(Buffer.from((await after.components.getJson(a.id)).json).toString('utf8')).toBe(JSON.stringify(changed))
    } finally {
      await after.close()
    }
  })

  it('makes the category tree of a library from before category records from its components’ paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-schema-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    const a = await before.components.create({ name: 'A', category: 'Passives/Resistors' })
    await before.components.create({ name: 'B', category: 'Passives/Capacitors' })
    await before.close()
    const db = openSqlite(join(dir, 'complib.db'))
    _undoTemplates(db)
    _undoAccounts(db)
    db.exec('DROP TABLE categories')
    // As an older version stored it: a spelling of its own.
    db.prepare('UPDATE components SET category = ? WHERE id = ?').run('passives/resistors/Thick film', a.id)
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION_BEFORE_CATEGORY_RECORDS))
    db.close()

    const after = await createSqliteStorage({ dir })
    try {
      const tree = await after.categories.list()
      expect(tree.map((c) => [c.path, c.count])).toEqual([
        ['passives', 2],
        ['passives/Capacitors', 1],
        ['passives/resistors', 1],
        ['passives/resistors/Thick film', 1],
      ])
      // A component naming the path in another spelling takes the records' names.
      expect((await after.components.create({ name: 'C', category: 'PASSIVES/RESISTORS' })).category).toBe('passives/resistors')
      expect((await after.categories.list()).length).toBe(4)
    } finally {
      await after.close()
    }
  })
})

/** Undoes the accounts step: its tables, and the columns it added to history events and runs. */
/** Undoes the templates step: parameter types' choices and limits, category templates, import rows, saved views. */
function _undoTemplates(db: ReturnType<typeof openSqlite>): void {
  // The external references step, the folded category index, the planned runs, mpn_grams and the sources, which follow.
  for (const table of ['sources', 'component_offers', 'field_provenance']) db.exec(`DROP TABLE ${table}`)
  db.exec('DROP TABLE mpn_grams')
  for (const column of ['plan_size', 'plan_up_to', 'plan_after', 'planning']) db.exec(`ALTER TABLE runs DROP COLUMN ${column}`)
  db.exec('DROP INDEX components_status')
  db.exec('DROP INDEX components_category_folded')
  db.exec('CREATE INDEX components_category ON components (category) WHERE category IS NOT NULL')
  db.exec('DROP TABLE external_refs')
  for (const table of ['category_templates', 'import_rows', 'saved_views']) db.exec(`DROP TABLE ${table}`)
  for (const column of ['choices', 'min_value', 'max_value']) db.exec(`ALTER TABLE parameter_types DROP COLUMN ${column}`)
}

function _undoAccounts(db: ReturnType<typeof openSqlite>): void {
  for (const table of ['api_tokens', 'auth_sessions', 'users', 'audit_log', 'settings']) db.exec(`DROP TABLE ${table}`)
  for (const column of ['actor_kind', 'actor_id', 'actor_name', 'channel', 'comment', 'request_id', 'reverted_to']) db.exec(`ALTER TABLE component_events DROP COLUMN ${column}`)
  db.exec('ALTER TABLE runs DROP COLUMN started_by')
}

/** Undoes the KiCad fields step: their columns, and their keys in every stored view. */
function _undoKicadFields(db: ReturnType<typeof openSqlite>): void {
  for (const column of ['kicad_value', 'exclude_from_bom', 'exclude_from_board', 'exclude_from_sim']) db.exec(`ALTER TABLE components DROP COLUMN ${column}`)
  db.exec(`UPDATE component_events SET snapshot = replace(snapshot, '"kicadValue":null,"excludeFromBom":false,"excludeFromBoard":false,"excludeFromSim":false,', '') WHERE snapshot IS NOT NULL`)
}

/** Undoes addIdentifierKeys (identifier-keys.ts). */
function _undoIdentifierKeys(db: ReturnType<typeof openSqlite>): void {
  for (const index of ['components_live_ipn_key', 'tags_name_key', 'manufacturers_name_key', 'parameter_types_name_key', 'locations_sibling_name_key']) db.exec(`DROP INDEX ${index}`)
  db.exec('CREATE UNIQUE INDEX components_live_ipn ON components (ipn) WHERE deleted_at IS NULL')
  db.exec('ALTER TABLE components DROP COLUMN ipn_key')
  for (const table of ['tags', 'manufacturers', 'parameter_types', 'locations']) db.exec(`ALTER TABLE ${table} DROP COLUMN name_key`)
  db.exec('ALTER TABLE manufacturers DROP COLUMN alias_keys')
}

/** Undoes the run counts step (sent and skipped per batch, skipped per run). */
function _undoRunCounts(db: ReturnType<typeof openSqlite>): void {
  for (const column of ['sent', 'skipped']) db.exec(`ALTER TABLE run_batches DROP COLUMN ${column}`)
  db.exec('ALTER TABLE runs DROP COLUMN entities_skipped')
}
