import { foldKey } from '../../identifiers'
import type { SyncSqlExecutor } from '../_internal/sql-executor'

/**
 * The stored comparison keys of identifiers (decision 0422): `components.ipn_key`,
 * `name_key` of tags, manufacturers, parameter types and locations, and
 * `manufacturers.alias_keys` (the keys of the aliases, as a JSON array). Unique indexes on them are what enforces
 * uniqueness; the repositories check first so that a collision is a 409
 * naming the other record.
 */

/** The JSON array of the keys of `aliases`, as `manufacturers.alias_keys` holds it. */
export function aliasKeys(aliases: readonly string[]): string {
  return JSON.stringify(aliases.map(foldKey))
}

/**
 * Migration step: adds the key columns, computes them (SQLite cannot run
 * foldKey) and creates the unique indexes. Records that collide under the fold
 * but were accepted before (`àX-1` beside `ÀX-1`, at most one per ASCII case)
 * are kept as they are: the oldest keeps the key, the others get none (NULL,
 * which a unique index lets repeat) and are named in the log. They stay
 * readable by id, and one gets a key again when it is renamed to something
 * free; tags and manufacturers can be merged.
 */
export function addIdentifierKeys(ex: SyncSqlExecutor, log?: (message: string) => void): void {
  for (const statement of [
    'ALTER TABLE components ADD COLUMN ipn_key TEXT',
    'ALTER TABLE tags ADD COLUMN name_key TEXT',
    'ALTER TABLE manufacturers ADD COLUMN name_key TEXT',
    `ALTER TABLE manufacturers ADD COLUMN alias_keys TEXT NOT NULL DEFAULT '[]'`,
    'ALTER TABLE parameter_types ADD COLUMN name_key TEXT',
    'ALTER TABLE locations ADD COLUMN name_key TEXT',
  ]) {
    ex.run(statement)
  }
  const kept: string[] = []
  const backfill = (table: string, column: string, kind: string, select: string, scope: (row: _KeyRow) => string | null) => {
    const holders = new Map<string, string>()
    for (const row of ex.all<_KeyRow>(`SELECT ${select} FROM ${table} ORDER BY created_at, id`)) {
      const key = foldKey(row.value)
      const where = scope(row)
      const holder = where === null ? undefined : holders.get(`${where}\u0000${key}`)
      if (holder !== undefined) {
        kept.push(`${kind} ${row.id} (${JSON.stringify(row.value)}, same as ${holder})`)
        continue
      }
      if (where !== null) holders.set(`${where}\u0000${key}`, row.id)
      ex.run(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [key, row.id])
    }
  }
  // Deleted components do not compete for an ipn (the index is partial) but get their key for a restore.
  backfill('components', 'ipn_key', 'component', 'id, ipn AS value, deleted_at AS scope', (r) => (r.scope === null ? '' : null))
  backfill('tags', 'name_key', 'tag', 'id, name AS value', () => '')
  backfill('manufacturers', 'name_key', 'manufacturer', 'id, name AS value', () => '')
  backfill('parameter_types', 'name_key', 'parameter type', 'id, name AS value', () => '')
  backfill('locations', 'name_key', 'location', `id, name AS value, ifnull(parent_id, '') AS scope`, (r) => r.scope ?? '')
  for (const row of ex.all<{ id: string; aliases: string }>(`SELECT id, aliases FROM manufacturers WHERE aliases <> '[]'`)) {
    ex.run('UPDATE manufacturers SET alias_keys = ? WHERE id = ?', [aliasKeys(JSON.parse(row.aliases) as string[]), row.id])
  }
  for (const statement of [
    'CREATE UNIQUE INDEX components_live_ipn_key ON components (ipn_key) WHERE deleted_at IS NULL',
    // The ASCII-only NOCASE index is implied by the one above (same ASCII case ⇒ same key).
    'DROP INDEX components_live_ipn',
    'CREATE UNIQUE INDEX tags_name_key ON tags (name_key)',
    'CREATE UNIQUE INDEX manufacturers_name_key ON manufacturers (name_key)',
    'CREATE UNIQUE INDEX parameter_types_name_key ON parameter_types (name_key)',
    `CREATE UNIQUE INDEX locations_sibling_name_key ON locations (ifnull(parent_id, ''), name_key)`,
  ]) {
    ex.run(statement)
  }
  if (kept.length) {
    log?.(
      `[storage] identifiers now compare as people read them; ${kept.length} record${kept.length === 1 ? '' : 's'} kept ${kept.length === 1 ? 'its' : 'their'} name beside one that now counts as the same, and cannot be found by name until renamed (or merged): ${kept.join('; ')}`,
    )
  }
}

interface _KeyRow {
  id: string
  value: string
  scope?: string | null
}
