import type { SyncSqlExecutor } from '../_internal/sql-executor'
import { foldKey } from '../../identifiers'
import { createId } from '../../ids'
import { addIdentifierKeys } from '../stores/identifier-keys'

/**
 * Schema of the embedded database. Each entry of MIGRATIONS runs once, in
 * order; `meta.schema_version` records how many ran. Append, never edit.
 *
 * Conventions: ids are TEXT primary keys (`cmp_…`); timestamps are ISO 8601
 * TEXT set by the application (never `datetime('now')`: both engines store the
 * same text, and a view shows it as stored); `version` bumps on every change of a record.
 *
 * An entry is SQL text, a list of single statements, or a function for a step
 * SQLite cannot do alone (it runs inside the same transaction).
 */
/**
 * Adds the KiCad fields to every stored view (history and current), just
 * before `createdAt`, where the view builders put them. Text, not JSON
 * functions, so the bytes stay JSON.stringify's on both engines (the same
 * statement is PostgreSQL's migration): `,"createdAt":` occurs once in a
 * view, since a quote inside a JSON string is always escaped.
 */
export const KICAD_VIEW_UPGRADE = `UPDATE component_events SET snapshot = replace(snapshot, ',"createdAt":', ',"kicadValue":null,"excludeFromBom":false,"excludeFromBoard":false,"excludeFromSim":false,"createdAt":') WHERE snapshot IS NOT NULL`

/**
 * Search in FTS5, words with the list of every word it holds (decision 0213). FTS4 merged the
 * whole list of a word's parts before the first match, so a list filtered by a common
 * word read a quarter of a million entries per page at a million parts; FTS5 reads a
 * word's list as it goes, and components_terms turns a long prefix into its words.
 * reindexComponent writes the same. The step reads the old table by rowid and keeps the
 * words listed, so it runs the same on a table already in FTS5 (tests that undo later steps).
 */
function searchInFts5(ex: SyncSqlExecutor, log?: (message: string) => void): void {
  const { n } = ex.get<{ n: number }>('SELECT count(*) AS n FROM components')!
  if (n >= 100_000) log?.(`[storage] rebuilding the word index of ${n.toLocaleString('en')} components in FTS5 (once; about a minute per million)`)
  for (const statement of [
    'ALTER TABLE components_fts RENAME TO components_fts4',
    "CREATE VIRTUAL TABLE components_fts USING fts5 (name, ipn, description, mpns, tokenize='unicode61', prefix='1 2 3')",
    'INSERT INTO components_fts (rowid, name, ipn, description, mpns) SELECT rowid, name, ipn, description, mpns FROM components_fts4',
    // One segment: a part is tested against each segment's lists (at a million parts, a page
    // testing 200 parts took 12–25 ms before and 7 ms after; 7 s once).
    "INSERT INTO components_fts (components_fts) VALUES ('optimize')",
    'DROP TABLE components_fts4',
    'CREATE TABLE IF NOT EXISTS components_terms (term TEXT PRIMARY KEY) WITHOUT ROWID',
    "CREATE VIRTUAL TABLE temp.components_fts_vocab USING fts5vocab(main, components_fts, 'row')",
    'INSERT OR IGNORE INTO components_terms (term) SELECT term FROM temp.components_fts_vocab',
    'DROP TABLE temp.components_fts_vocab',
    // The 3-character windows too: FTS5 reads the lists of a query's windows together, a
    // part at a time, where FTS4 merged each whole first. Their positions are never asked.
    // (A table already without its text, as windowsWithoutText leaves it, has none to copy: it stays.)
    ...['components_grams', 'mpn_grams'].filter((table) => !_contentless(ex, table)).flatMap((table) => [
      `ALTER TABLE ${table} RENAME TO ${table}4`,
      `CREATE VIRTUAL TABLE ${table} USING fts5 (grams, tokenize='ascii', detail='none')`,
      `INSERT INTO ${table} (rowid, grams) SELECT rowid, grams FROM ${table}4`,
      `INSERT INTO ${table} (${table}) VALUES ('optimize')`,
      `DROP TABLE ${table}4`,
    ]),
  ]) ex.run(statement)
}

/**
 * The 3-character windows without their text: FTS5 kept a copy of each
 * part's windows as the table's content, which no query reads (the windows
 * are written anew from the part on each change, search.ts), 404 MB of the
 * 489 MB the two tables took at a million parts. `content=''` drops it;
 * `contentless_delete=1` lets a part's row be deleted by its rowid. And every
 * FTS5 table merges two segments of a level (FTS5 waits for four): the
 * background merges (index-merge.ts) then leave one per level, each of which
 * a part's test looks up (decision 0213).
 */
function windowsWithoutText(ex: SyncSqlExecutor, log?: (message: string) => void): void {
  const { n } = ex.get<{ n: number }>('SELECT count(*) AS n FROM components')!
  if (n >= 100_000) log?.(`[storage] rewriting the suggestion indexes of ${n.toLocaleString('en')} components without their text (once; under a minute per million)`)
  for (const table of ['components_grams', 'mpn_grams']) {
    if (_contentless(ex, table)) continue
    ex.run(`ALTER TABLE ${table} RENAME TO ${table}_with_text`)
    ex.run(`CREATE VIRTUAL TABLE ${table} USING fts5 (grams, tokenize='ascii', detail='none', content='', contentless_delete=1)`)
    ex.run(`INSERT INTO ${table} (rowid, grams) SELECT rowid, grams FROM ${table}_with_text`)
    ex.run(`INSERT INTO ${table} (${table}) VALUES ('optimize')`)
    ex.run(`DROP TABLE ${table}_with_text`)
  }
  for (const table of ['components_fts', 'components_grams', 'mpn_grams']) ex.run(`INSERT INTO ${table} (${table}, rank) VALUES ('usermerge', 2)`)
}

/**
 * The words of the part numbers alone, in an index of their own. MPN
 * suggestions match words of part numbers only, and FTS5 answers a query
 * limited to components_fts's `mpns` column by reading each word's list in
 * every column: `resistor 0603` at a million parts read every resistor to find
 * none (31 ms), `R 10k` every part with a word starting with `r` (9 ms).
 * `mpn_words` holds a part's part numbers as words (rowid = the component's
 * rowid, as mpn_grams): no positions (`detail='none'`: a query is its words,
 * each a prefix, and the ranking confirms the rest) and no copy of the text.
 * `mpn_terms` lists its words, as components_terms lists the others: a word
 * the part numbers never hold ends the tier before FTS5 is asked. Both
 * written by reindexComponent; `mpn_terms` only added to, as components_terms.
 * Re-runnable (tests that undo later steps run it again).
 */
function mpnWords(ex: SyncSqlExecutor, log?: (message: string) => void): void {
  const { n } = ex.get<{ n: number }>('SELECT count(*) AS n FROM components')!
  if (n >= 100_000) log?.(`[storage] indexing the words of the part numbers of ${n.toLocaleString('en')} components (once; seconds per million)`)
  ex.run('DROP TABLE IF EXISTS mpn_words')
  ex.run("CREATE VIRTUAL TABLE mpn_words USING fts5 (words, tokenize='unicode61', prefix='1 2 3', detail='none', content='', contentless_delete=1)")
  ex.run(`INSERT INTO mpn_words (rowid, words)
    SELECT c.rowid, group_concat(m.part_number, ' ') FROM mpns m JOIN components c ON c.id = m.component_id GROUP BY c.rowid`)
  ex.run("INSERT INTO mpn_words (mpn_words) VALUES ('optimize')")
  ex.run("INSERT INTO mpn_words (mpn_words, rank) VALUES ('usermerge', 2)")
  ex.run('CREATE TABLE IF NOT EXISTS mpn_terms (term TEXT PRIMARY KEY) WITHOUT ROWID')
  ex.run("CREATE VIRTUAL TABLE temp.mpn_words_vocab USING fts5vocab(main, mpn_words, 'row')")
  ex.run('INSERT OR IGNORE INTO mpn_terms (term) SELECT term FROM temp.mpn_words_vocab')
  ex.run('DROP TABLE temp.mpn_words_vocab')
}

/** Whether an FTS5 table keeps no copy of its text (`content=''`). */
function _contentless(ex: SyncSqlExecutor, table: string): boolean {
  const row = ex.get<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE name = ?`, [table])
  return /content\s*=\s*''/.test(row?.sql ?? '')
}

/**
 * The category tree from the components' category paths: one record per
 * path prefix, names compared by foldKey among siblings (the first spelling
 * met, by component id, names the record). The components keep their paths.
 */
function addCategoryRecords(ex: SyncSqlExecutor): void {
  ex.run(`CREATE TABLE categories (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES categories (id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  )`)
  ex.run('CREATE INDEX categories_parent ON categories (parent_id)')
  const at = new Date().toISOString()
  const made = new Map<string, string>()
  for (const { category } of ex.all<{ category: string }>('SELECT category FROM components WHERE category IS NOT NULL ORDER BY id')) {
    let parentId: string | null = null
    let key = ''
    for (const name of category.split('/').filter(Boolean)) {
      key = `${key}/${foldKey(name)}`
      let id = made.get(key)
      if (!id) {
        id = createId('category')
        ex.run('INSERT INTO categories (id, name, parent_id, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, 1)', [id, name, parentId, at, at])
        made.set(key, id)
      }
      parentId = id
    }
  }
}

type Migration = string | readonly string[] | ((ex: SyncSqlExecutor, log?: (message: string) => void) => void)

const MIGRATIONS: ReadonlyArray<Migration> = [
  /* sql */ `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE components (
    id TEXT PRIMARY KEY,
    ipn TEXT NOT NULL COLLATE NOCASE,
    name TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    category TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT,
    version INTEGER NOT NULL
  );
  -- ipn is unique among non-deleted components only: a deleted one frees it.
  CREATE UNIQUE INDEX components_live_ipn ON components (ipn) WHERE deleted_at IS NULL;
  CREATE INDEX components_ipn ON components (ipn);
  CREATE INDEX components_name ON components (name COLLATE NOCASE, id);
  CREATE INDEX components_updated ON components (updated_at, id);
  CREATE INDEX components_category ON components (category) WHERE category IS NOT NULL;

  -- Full-text index: docid = components.rowid; mpns holds the part numbers joined by spaces.
  CREATE VIRTUAL TABLE components_fts USING fts4 (name, ipn, description, mpns, tokenize=unicode61);

  CREATE TABLE component_parameters (
    id TEXT PRIMARY KEY,
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL COLLATE NOCASE,
    value TEXT NOT NULL,
    unit TEXT,
    numeric REAL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX component_parameters_component ON component_parameters (component_id, position);
  CREATE INDEX component_parameters_type ON component_parameters (type, numeric);

  CREATE TABLE manufacturers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    website TEXT,
    aliases TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );

  CREATE TABLE mpns (
    id TEXT PRIMARY KEY,
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    manufacturer_id TEXT NOT NULL REFERENCES manufacturers (id),
    position INTEGER NOT NULL,
    part_number TEXT NOT NULL COLLATE NOCASE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL,
    UNIQUE (component_id, manufacturer_id, part_number)
  );
  CREATE INDEX mpns_component ON mpns (component_id, position);
  CREATE INDEX mpns_part_number ON mpns (part_number);
  CREATE INDEX mpns_manufacturer ON mpns (manufacturer_id);

  CREATE TABLE tags (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    color TEXT,
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE TABLE component_tags (
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (component_id, tag_id)
  ) WITHOUT ROWID;
  CREATE INDEX component_tags_tag ON component_tags (tag_id, component_id);

  CREATE TABLE symbols (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    library TEXT,
    description TEXT,
    file_name TEXT,
    content TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX symbols_name ON symbols (name COLLATE NOCASE, id);
  CREATE TABLE footprints (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    library TEXT,
    description TEXT,
    file_name TEXT,
    content TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX footprints_name ON footprints (name COLLATE NOCASE, id);
  CREATE TABLE component_symbols (
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL REFERENCES symbols (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (component_id, item_id)
  ) WITHOUT ROWID;
  CREATE INDEX component_symbols_item ON component_symbols (item_id, component_id);
  CREATE TABLE component_footprints (
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    item_id TEXT NOT NULL REFERENCES footprints (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (component_id, item_id)
  ) WITHOUT ROWID;
  CREATE INDEX component_footprints_item ON component_footprints (item_id, component_id);

  CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    component_id TEXT REFERENCES components (id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER,
    sha256 TEXT,
    url TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX attachments_component ON attachments (component_id, id);
  CREATE INDEX attachments_sha256 ON attachments (sha256) WHERE sha256 IS NOT NULL;

  CREATE TABLE parameter_types (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    unit TEXT,
    kind TEXT NOT NULL,
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );

  CREATE TABLE locations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    parent_id TEXT REFERENCES locations (id),
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE INDEX locations_parent ON locations (parent_id, name);
  CREATE TABLE stock (
    component_id TEXT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    location_id TEXT NOT NULL REFERENCES locations (id),
    quantity INTEGER NOT NULL CHECK (quantity >= 0),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (component_id, location_id)
  ) WITHOUT ROWID;
  CREATE INDEX stock_location ON stock (location_id, component_id);
  CREATE TABLE stock_movements (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    component_id TEXT NOT NULL,
    location_id TEXT NOT NULL,
    delta INTEGER NOT NULL,
    reason TEXT,
    at TEXT NOT NULL
  );

  -- History and change feed in one table: one row per change of a component.
  -- snapshot is the component JSON after the change (NULL for a purge).
  CREATE TABLE component_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    component_id TEXT NOT NULL,
    op TEXT NOT NULL,
    version INTEGER NOT NULL,
    at TEXT NOT NULL,
    changes TEXT NOT NULL DEFAULT '[]',
    snapshot TEXT
  );
  CREATE INDEX component_events_component ON component_events (component_id, seq);

  CREATE TABLE connectors (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    config TEXT NOT NULL,
    secret TEXT,
    previous_secret TEXT,
    previous_secret_expires_at TEXT,
    code TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    connector_id TEXT NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
    trigger TEXT NOT NULL,
    status TEXT NOT NULL,
    total INTEGER NOT NULL,
    batches_total INTEGER NOT NULL,
    batches_succeeded INTEGER NOT NULL DEFAULT 0,
    batches_failed INTEGER NOT NULL DEFAULT 0,
    entities_sent INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    resumed_at TEXT,
    logs TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX runs_connector ON runs (connector_id, id);
  CREATE INDEX runs_active ON runs (status) WHERE status IN ('queued', 'running');
  CREATE TABLE run_batches (
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    webhook_id TEXT NOT NULL,
    ids TEXT NOT NULL,
    size INTEGER NOT NULL,
    status TEXT NOT NULL,
    attempts TEXT NOT NULL DEFAULT '[]',
    last_status INTEGER,
    error TEXT,
    body BLOB,
    PRIMARY KEY (run_id, idx)
  ) WITHOUT ROWID;

  -- Jobs (bulk operations) and import sessions: small JSON documents.
  CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    collection TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL
  );
  `,
  // Suggest answers "q anywhere" from an index instead of a LIKE scan of every
  // component: one FTS4 document per component (docid = rowid) whose
  // tokens are the hex of every 3-character window of its lower-cased name,
  // ipn and part numbers, each padded with two char(1) so that 1 and 2
  // character queries are token prefixes. reindexComponent writes the same.
  /* sql */ `
  CREATE VIRTUAL TABLE components_grams USING fts4 (grams, tokenize=simple);
  WITH RECURSIVE
    f(d, t) AS (
      SELECT rowid, lower(name) || char(1, 1) FROM components
      UNION ALL SELECT rowid, lower(ipn) || char(1, 1) FROM components
      UNION ALL SELECT c.rowid, lower(m.part_number) || char(1, 1) FROM mpns m JOIN components c ON c.id = m.component_id
    ),
    g(d, t, i) AS (SELECT d, t, 1 FROM f UNION ALL SELECT d, t, i + 1 FROM g WHERE i + 3 <= length(t))
  INSERT INTO components_grams (docid, grams) SELECT d, group_concat(DISTINCT hex(substr(t, i, 3))) FROM g GROUP BY d;
  -- Deleted components are few: this finds them without a scan (tag counts, stats).
  CREATE INDEX components_deleted ON components (deleted_at) WHERE deleted_at IS NOT NULL;
  `,
  // Prefix indexes for 1 and 2 characters: without them a short word prefix
  // ("r*", "in*") merges the doclists of every matching term, which grows with the
  // library. The rows are those reindexComponent writes.
  /* sql */ `
  DROP TABLE components_fts;
  CREATE VIRTUAL TABLE components_fts USING fts4 (name, ipn, description, mpns, tokenize=unicode61, prefix="1,2");
  INSERT INTO components_fts (docid, name, ipn, description, mpns)
    SELECT c.rowid, c.name, c.ipn, coalesce(c.description, ''), coalesce((SELECT group_concat(part_number, ' ') FROM mpns WHERE component_id = c.id), '') FROM components c;
  `,
  // The number of live components, kept by triggers: every page of `GET /api/components`
  // reports it (X-Total-Count), and counting it took a scan of the table per request
  // (decision 1203). Given as single statements: trigger bodies hold `;`.
  [
    'CREATE TABLE component_totals (id INTEGER PRIMARY KEY CHECK (id = 1), live INTEGER NOT NULL)',
    'INSERT INTO component_totals (id, live) SELECT 1, count(*) FROM components WHERE deleted_at IS NULL',
    'CREATE TRIGGER component_totals_insert AFTER INSERT ON components WHEN new.deleted_at IS NULL BEGIN UPDATE component_totals SET live = live + 1; END',
    'CREATE TRIGGER component_totals_delete AFTER DELETE ON components WHEN old.deleted_at IS NULL BEGIN UPDATE component_totals SET live = live - 1; END',
    `CREATE TRIGGER component_totals_update AFTER UPDATE OF deleted_at ON components WHEN (old.deleted_at IS NULL) <> (new.deleted_at IS NULL)
     BEGIN UPDATE component_totals SET live = live + CASE WHEN new.deleted_at IS NULL THEN 1 ELSE -1 END; END`,
  ],
  // A batch that went out as read records the history position it was read at (mark)
  // instead of its bytes: the same records are read back from history for a resend.
  ['ALTER TABLE run_batches ADD COLUMN mark INTEGER'],
  // view_seq is the history event that holds the component's current view: reads fetch
  // that event by its primary key instead of searching the component's events for the
  // latest (decision 1200). The trigger keeps it on every event that
  // stores a view.
  [
    'ALTER TABLE components ADD COLUMN view_seq INTEGER',
    'UPDATE components SET view_seq = (SELECT max(e.seq) FROM component_events e WHERE e.component_id = components.id AND e.snapshot IS NOT NULL)',
    `CREATE TRIGGER component_events_view AFTER INSERT ON component_events WHEN new.snapshot IS NOT NULL
     BEGIN UPDATE components SET view_seq = new.seq WHERE id = new.component_id; END`,
  ],
  // Identifiers compare by foldKey (NFKC, case fold), kept in key columns under
  // unique indexes (decisions 0421 and 0422); computed in JavaScript.
  addIdentifierKeys,
  // A run counts what its receivers acknowledged, per batch (sent), and the frozen
  // ids gone before their batch was read (skipped; decision 0714). Batches
  // acknowledged before keep the count older versions reported: their size.
  [
    'ALTER TABLE run_batches ADD COLUMN sent INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE run_batches ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0',
    `UPDATE run_batches SET sent = size WHERE status = 'succeeded'`,
    'ALTER TABLE runs ADD COLUMN entities_skipped INTEGER NOT NULL DEFAULT 0',
  ],
  // The number of the highest generated-style ipn (`CMP-<digits>`, by its folded key) is
  // an index lookup: finding it read every CMP- ipn of the library on each create
  // without an ipn, so a bulk create slowed as the library grew.
  [
    `CREATE INDEX components_cmp_number ON components (CAST(substr(ipn_key, 5) AS INTEGER))
     WHERE ipn_key GLOB 'cmp-[0-9]*' AND substr(ipn_key, 5) NOT GLOB '*[^0-9]*'`,
  ],
  // KiCad fields per component (decision 0632): an explicit Value (NULL: the default rule)
  // and the exclusion flags. Stored views and history gain them with the values every
  // component had until now (KICAD_VIEW_UPGRADE).
  [
    'ALTER TABLE components ADD COLUMN kicad_value TEXT',
    'ALTER TABLE components ADD COLUMN exclude_from_bom INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE components ADD COLUMN exclude_from_board INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE components ADD COLUMN exclude_from_sim INTEGER NOT NULL DEFAULT 0',
    KICAD_VIEW_UPGRADE,
  ],
  // Categories as records (decision 0408): a tree of names with ids, made from the
  // paths components hold (addCategoryRecords).
  addCategoryRecords,
  // Accounts, sign-in sessions, API tokens, the audit trail and server settings
  // (decision 1500). Sessions and tokens keep only a hash of their secret; the
  // audit trail's seq is given by the store (it is part of each entry's hash).
  // History events record who made them and why.
  [
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      username TEXT NOT NULL UNIQUE,
      display_name TEXT NOT NULL,
      role TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0,
      last_login_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      version INTEGER NOT NULL
    )`,
    `CREATE TABLE auth_sessions (
      id_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      created_at TEXT NOT NULL,
      last_seen_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    'CREATE INDEX auth_sessions_user ON auth_sessions (user_id)',
    `CREATE TABLE api_tokens (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      scope TEXT NOT NULL,
      owner_id TEXT NOT NULL REFERENCES users (id),
      hash TEXT NOT NULL UNIQUE,
      prefix TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      last_used_at TEXT
    )`,
    'CREATE INDEX api_tokens_owner ON api_tokens (owner_id, created_at)',
    `CREATE TABLE audit_log (
      seq INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      actor_kind TEXT NOT NULL,
      actor_id TEXT,
      actor_name TEXT NOT NULL,
      channel TEXT NOT NULL,
      request_id TEXT,
      action TEXT NOT NULL,
      target_type TEXT,
      target_id TEXT,
      comment TEXT,
      details TEXT,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    )`,
    'CREATE INDEX audit_log_at ON audit_log (at)',
    'CREATE INDEX audit_log_action ON audit_log (action, seq)',
    'CREATE INDEX audit_log_target ON audit_log (target_id, seq)',
    'CREATE INDEX audit_log_actor ON audit_log (actor_id, seq)',
    'CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL)',
    'ALTER TABLE component_events ADD COLUMN actor_kind TEXT',
    'ALTER TABLE component_events ADD COLUMN actor_id TEXT',
    'ALTER TABLE component_events ADD COLUMN actor_name TEXT',
    'ALTER TABLE component_events ADD COLUMN channel TEXT',
    'ALTER TABLE component_events ADD COLUMN comment TEXT',
    'ALTER TABLE component_events ADD COLUMN request_id TEXT',
    'ALTER TABLE component_events ADD COLUMN reverted_to INTEGER',
    'ALTER TABLE runs ADD COLUMN started_by TEXT',
  ],
  // Parameter templates (decision 0440): a parameter type's choices and limits, and per
  // category the types its parts carry (inherited down the tree). Big imports keep their
  // rows one per record (decision 0615), and saved views of the library table are kept
  // per account (decision 1508).
  [
    'ALTER TABLE parameter_types ADD COLUMN choices TEXT',
    'ALTER TABLE parameter_types ADD COLUMN min_value REAL',
    'ALTER TABLE parameter_types ADD COLUMN max_value REAL',
    `CREATE TABLE category_templates (
      category_id TEXT NOT NULL REFERENCES categories (id),
      parameter_type_id TEXT NOT NULL REFERENCES parameter_types (id),
      position INTEGER NOT NULL,
      required INTEGER NOT NULL DEFAULT 0,
      is_value INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (category_id, parameter_type_id)
    )`,
    'CREATE INDEX category_templates_type ON category_templates (parameter_type_id)',
    `CREATE TABLE import_rows (
      import_id TEXT NOT NULL,
      row_no INTEGER NOT NULL,
      cells TEXT NOT NULL,
      outcome TEXT,
      outcome_kind TEXT,
      PRIMARY KEY (import_id, row_no)
    )`,
    `CREATE TABLE saved_views (
      id TEXT PRIMARY KEY,
      owner_id TEXT NOT NULL,
      name TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      version INTEGER NOT NULL
    )`,
    'CREATE UNIQUE INDEX saved_views_owner_name ON saved_views (owner_id, name)',
  ],
  // The peers' keys of imported parts and companies (decision 0640): `target` is a
  // component id (kind part) or a manufacturer name (kind company).
  [
    `CREATE TABLE external_refs (
      source TEXT NOT NULL,
      kind TEXT NOT NULL,
      key TEXT NOT NULL,
      target TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (source, kind, key)
    )`,
    'CREATE INDEX external_refs_target ON external_refs (kind, target)',
  ],
  // The live parts of a category (a path and its descendants, any case: one range of the folded
  // index, stores/_shared.ts categorySubtree) and of a status, for the count of a filtered list
  // and the page of a small one (decision 0209). The case-sensitive index served no query.
  [
    'DROP INDEX IF EXISTS components_category',
    'CREATE INDEX components_category_folded ON components (category COLLATE NOCASE) WHERE deleted_at IS NULL',
    'CREATE INDEX components_status ON components (status) WHERE deleted_at IS NULL',
  ],
  // A push plans its batches as it goes (decision 0320): the batch size, the highest id at
  // its start, the last id planned, and whether batches remain. Runs from before froze theirs.
  [
    'ALTER TABLE runs ADD COLUMN plan_size INTEGER',
    'ALTER TABLE runs ADD COLUMN plan_up_to TEXT',
    'ALTER TABLE runs ADD COLUMN plan_after TEXT',
    'ALTER TABLE runs ADD COLUMN planning INTEGER NOT NULL DEFAULT 0',
  ],
  // The 3-character windows of each component's part numbers alone, as components_grams
  // holds them (docid = the component's rowid): the substring tier of MPN suggestions. Through
  // components_grams, a query whose windows were in many names ("LM358", "47k") had every
  // such component's part numbers tested, to find none. reindexComponent writes the same.
  /* sql */ `
  CREATE VIRTUAL TABLE mpn_grams USING fts4 (grams, tokenize=simple);
  WITH RECURSIVE
    f(d, t) AS (SELECT c.rowid, lower(m.part_number) || char(1, 1) FROM mpns m JOIN components c ON c.id = m.component_id),
    g(d, t, i) AS (SELECT d, t, 1 FROM f UNION ALL SELECT d, t, i + 1 FROM g WHERE i + 3 <= length(t))
  INSERT INTO mpn_grams (docid, grams) SELECT d, group_concat(DISTINCT hex(substr(t, i, 3))) FROM g GROUP BY d;
  `,
  // Inbound sources (decision 1600): each configured source with its secrets apart from its
  // config (decision 1604), the offers kept per component and source, and where each field
  // of a component was filled from (decision 1603). Offers and provenance keep the source's
  // id after it is deleted (no foreign key): a part's prices stay readable.
  [
    `CREATE TABLE sources (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      name TEXT NOT NULL,
      config TEXT NOT NULL,
      secrets TEXT NOT NULL,
      refresh TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      version INTEGER NOT NULL
    )`,
    `CREATE TABLE component_offers (
      component_id TEXT NOT NULL,
      source_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      ref TEXT NOT NULL,
      supplier TEXT NOT NULL,
      sku TEXT,
      url TEXT,
      stock INTEGER,
      minimum_quantity INTEGER,
      multiple INTEGER,
      packaging TEXT,
      currency TEXT,
      price_breaks TEXT NOT NULL,
      fetched_at TEXT NOT NULL,
      PRIMARY KEY (component_id, source_id, position)
    )`,
    `CREATE TABLE field_provenance (
      component_id TEXT NOT NULL,
      field TEXT NOT NULL,
      source_id TEXT NOT NULL,
      source_type TEXT NOT NULL,
      source_name TEXT NOT NULL,
      ref TEXT NOT NULL,
      at TEXT NOT NULL,
      PRIMARY KEY (component_id, field)
    )`,
  ],
  searchInFts5,
  windowsWithoutText,
  // A category's live parts in name order (decision 0321): a page of a category no part lies
  // below, sorted by name, is read along this index; the category's range reads it as before,
  // and now finds each part's id in it too.
  [
    'DROP INDEX IF EXISTS components_category_folded',
    'CREATE INDEX components_category_folded ON components (category COLLATE NOCASE, name COLLATE NOCASE, id) WHERE deleted_at IS NULL',
  ],
  mpnWords,
]

/**
 * Brings the schema up to date (or up to version `target`, for tests that
 * make an older library); returns whether it ran anything. `log` hears what a
 * step wants known.
 */
export function migrate(ex: SyncSqlExecutor, log?: (message: string) => void, target: number = MIGRATIONS.length): boolean {
  ex.run('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  const row = ex.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`)
  const current = row ? Number(row.value) : 0
  for (let i = current; i < target; i++) {
    const migration = MIGRATIONS[i]!
    if (typeof migration === 'function') migration(ex, log)
    else for (const statement of typeof migration === 'string' ? _splitStatements(migration) : migration) ex.run(statement)
  }
  if (current >= target) return false
  ex.run(`INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)`, [String(target)])
  return true
}

export const SCHEMA_VERSION = MIGRATIONS.length
/** The schema version of a library from before the category records. */
export const SCHEMA_VERSION_BEFORE_CATEGORY_RECORDS = MIGRATIONS.indexOf(addCategoryRecords)
/** The schema version of a library from before identifier keys (addIdentifierKeys is the next step). */
export const SCHEMA_VERSION_BEFORE_IDENTIFIER_KEYS = MIGRATIONS.indexOf(addIdentifierKeys)
/** The schema version of a library from before search in FTS5. */
export const SCHEMA_VERSION_BEFORE_FTS5 = MIGRATIONS.indexOf(searchInFts5)
/** The schema version just before the window tables lost their text (tests of that step). */
export const SCHEMA_VERSION_BEFORE_WINDOWS_WITHOUT_TEXT = MIGRATIONS.indexOf(windowsWithoutText)
/** The schema version of a library from before the part numbers' own words. */
export const SCHEMA_VERSION_BEFORE_MPN_WORDS = MIGRATIONS.indexOf(mpnWords)
/** The schema version of a library from before the KiCad fields. */
export const SCHEMA_VERSION_BEFORE_KICAD_FIELDS = MIGRATIONS.findIndex((m) => Array.isArray(m) && m.includes(KICAD_VIEW_UPGRADE))

function _splitStatements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
}
