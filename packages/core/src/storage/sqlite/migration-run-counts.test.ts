import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from './engine/driver'
import { afterEach, describe, expect, it } from 'vitest'
import { createSqliteStorage } from './storage'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('run counts migration', () => {
  it('gives the runs of a library from before per-batch counts the counts older versions reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-run-counts-'))
    dirs.push(dir)
    const before = await createSqliteStorage({ dir })
    const c = await before.connectors.create({ type: 'webhook', name: 'hook', enabled: true, config: { url: 'http://127.0.0.1:9/hook' }, secret: 'whsec_x', code: null })
    const run = await before.runs.create({
      connectorId: c.id,
      trigger: 'manual',
      batches: [
        { webhookId: 'msg_a', ids: ['cmp_1', 'cmp_2', 'cmp_3'] },
        { webhookId: 'msg_b', ids: ['cmp_4'] },
      ],
    })
    await before.runs.updateBatch(run.id, 0, { status: 'succeeded' })
    await before.close()

    // The same library as before the run counts step: its columns not there yet.
    const db = openSqlite(join(dir, 'complib.db'))
    const version = Number((db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as { value: string }).value)
    // The steps after the run counts undone too (newest first), then the run counts.
    // The FTS5 steps run again on tables already in FTS5 (schema.ts): only the list of words goes.
    db.exec('DROP TABLE mpn_terms')
    db.exec('DROP TABLE mpn_words')
    db.exec('DROP INDEX components_category_folded')
    db.exec('CREATE INDEX components_category_folded ON components (category COLLATE NOCASE) WHERE deleted_at IS NULL')
    db.exec('DROP TABLE components_terms')
    for (const table of ['sources', 'component_offers', 'field_provenance']) db.exec(`DROP TABLE ${table}`)
    db.exec('DROP TABLE mpn_grams')
    for (const column of ['plan_size', 'plan_up_to', 'plan_after', 'planning']) db.exec(`ALTER TABLE runs DROP COLUMN ${column}`)
    db.exec('DROP INDEX components_status')
    db.exec('DROP INDEX components_category_folded')
    db.exec('CREATE INDEX components_category ON components (category) WHERE category IS NOT NULL')
    db.exec('DROP TABLE external_refs')
    for (const table of ['category_templates', 'import_rows', 'saved_views']) db.exec(`DROP TABLE ${table}`)
    for (const column of ['choices', 'min_value', 'max_value']) db.exec(`ALTER TABLE parameter_types DROP COLUMN ${column}`)
    for (const table of ['api_tokens', 'auth_sessions', 'users', 'audit_log', 'settings']) db.exec(`DROP TABLE ${table}`)
    for (const column of ['actor_kind', 'actor_id', 'actor_name', 'channel', 'comment', 'request_id', 'reverted_to']) db.exec(`ALTER TABLE component_events DROP COLUMN ${column}`)
    db.exec('ALTER TABLE runs DROP COLUMN started_by')
    db.exec('DROP TABLE categories')
    for (const column of ['kicad_value', 'exclude_from_bom', 'exclude_from_board', 'exclude_from_sim']) db.exec(`ALTER TABLE components DROP COLUMN ${column}`)
    db.exec('DROP INDEX components_cmp_number')
    for (const column of ['sent', 'skipped']) db.exec(`ALTER TABLE run_batches DROP COLUMN ${column}`)
    db.exec('ALTER TABLE runs DROP COLUMN entities_skipped')
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(version - 15))
    db.close()

    const after = await createSqliteStorage({ dir })
    try {
      const detail = await after.runs.get(run.id)
      expect(detail.entitiesSkipped).toBe(0)
      expect(detail.batches.map((b) => [b.status, b.entitiesSent, b.entitiesSkipped])).toEqual([
        ['succeeded', 3, 0],
        ['pending', 0, 0],
      ])
    } finally {
      await after.close()
    }
  })
})
