import type { PoolClient } from 'pg'

/**
 * The PostgreSQL schema: the embedded engine's tables (sqlite/schema.ts, as
 * its migrations leave them) in PostgreSQL's types, with its own migrations
 * (append only). Differences, each for the same behaviour:
 * - columns SQLite declares `COLLATE NOCASE` are `citext`, so `=` and UNIQUE
 *   ignore case there as they do in SQLite;
 * - `components.rowid` is an identity column (SQLite's implicit rowid);
 * - component views and change-feed texts stay `text`, never `jsonb`: a view is
 *   served byte for byte as it was stored, on both engines;
 * - search uses expression indexes (pg_trgm for substrings, a `simple`
 *   tsvector for words) over the tables themselves, where SQLite keeps FTS4
 *   tables in step from the stores;
 * - the triggers that keep `components.view_seq` and the live count are
 *   PL/pgSQL functions.
 */
const MIGRATIONS: readonly string[] = [
  /* sql */ `
  CREATE TABLE components (
    id text PRIMARY KEY,
    rowid bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    ipn citext NOT NULL,
    name text NOT NULL,
    description text,
    status text NOT NULL,
    category text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    deleted_at text,
    version integer NOT NULL,
    view_seq bigint,
    ipn_key text
  );
  CREATE INDEX components_ipn ON components (ipn);
  CREATE UNIQUE INDEX components_live_ipn_key ON components (ipn_key) WHERE deleted_at IS NULL;
  CREATE INDEX components_name ON components (lower(name) COLLATE "C", id);
  CREATE INDEX components_updated ON components (updated_at, id);
  CREATE INDEX components_deleted ON components (deleted_at) WHERE deleted_at IS NOT NULL;
  CREATE INDEX components_category ON components (category) WHERE category IS NOT NULL;
  CREATE INDEX components_cmp_number ON components ((substr(ipn_key, 5)::numeric)) WHERE ipn_key ~ '^cmp-[0-9]+$';
  CREATE INDEX components_trgm ON components USING gin ((lower(name) || ' ' || lower(ipn::text)) gin_trgm_ops);
  CREATE INDEX components_words ON components USING gin (to_tsvector('simple', name || ' ' || ipn::text || ' ' || coalesce(description, '')));

  CREATE TABLE component_totals (id integer PRIMARY KEY CHECK (id = 1), live bigint NOT NULL);
  INSERT INTO component_totals (id, live) VALUES (1, 0);

  CREATE TABLE component_events (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    component_id text NOT NULL,
    op text NOT NULL,
    version integer NOT NULL,
    at text NOT NULL,
    changes text NOT NULL DEFAULT '[]',
    snapshot text
  );
  CREATE INDEX component_events_component ON component_events (component_id, seq);

  CREATE TABLE tags (
    id text PRIMARY KEY,
    name citext NOT NULL UNIQUE,
    color text,
    description text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL,
    name_key text
  );
  CREATE UNIQUE INDEX tags_folded_name ON tags (name_key);
  CREATE INDEX tags_trgm ON tags USING gin (lower(name::text) gin_trgm_ops);

  CREATE TABLE component_tags (
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    tag_id text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    position integer NOT NULL,
    PRIMARY KEY (component_id, tag_id)
  );
  CREATE INDEX component_tags_tag ON component_tags (tag_id, component_id);

  CREATE TABLE parameter_types (
    id text PRIMARY KEY,
    name citext NOT NULL UNIQUE,
    unit text,
    kind text NOT NULL,
    description text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL,
    name_key text
  );
  CREATE UNIQUE INDEX parameter_types_folded_name ON parameter_types (name_key);

  CREATE TABLE component_parameters (
    id text PRIMARY KEY,
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    position integer NOT NULL,
    type citext NOT NULL,
    value text NOT NULL,
    unit text,
    numeric double precision,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE INDEX component_parameters_component ON component_parameters (component_id, position);
  CREATE INDEX component_parameters_type ON component_parameters (type, numeric);

  CREATE TABLE manufacturers (
    id text PRIMARY KEY,
    name citext NOT NULL UNIQUE,
    website text,
    aliases text NOT NULL DEFAULT '[]',
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL,
    name_key text,
    alias_keys text NOT NULL DEFAULT '[]'
  );
  CREATE UNIQUE INDEX manufacturers_folded_name ON manufacturers (name_key);

  CREATE TABLE mpns (
    id text PRIMARY KEY,
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    manufacturer_id text NOT NULL REFERENCES manufacturers (id),
    position integer NOT NULL,
    part_number citext NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL,
    UNIQUE (component_id, manufacturer_id, part_number)
  );
  CREATE INDEX mpns_component ON mpns (component_id, position);
  CREATE INDEX mpns_manufacturer ON mpns (manufacturer_id);
  CREATE INDEX mpns_part_number ON mpns (part_number);
  CREATE INDEX mpns_words ON mpns USING gin (to_tsvector('simple', part_number::text));
  CREATE INDEX mpns_trgm ON mpns USING gin (lower(part_number::text) gin_trgm_ops);

  CREATE TABLE symbols (
    id text PRIMARY KEY,
    name text NOT NULL,
    library text,
    description text,
    file_name text,
    content text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE INDEX symbols_name ON symbols (lower(name) COLLATE "C", id);
  CREATE TABLE footprints (LIKE symbols INCLUDING ALL);

  CREATE TABLE component_symbols (
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    item_id text NOT NULL REFERENCES symbols (id) ON DELETE CASCADE,
    position integer NOT NULL,
    PRIMARY KEY (component_id, item_id)
  );
  CREATE INDEX component_symbols_item ON component_symbols (item_id, component_id);
  CREATE TABLE component_footprints (
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    item_id text NOT NULL REFERENCES footprints (id) ON DELETE CASCADE,
    position integer NOT NULL,
    PRIMARY KEY (component_id, item_id)
  );
  CREATE INDEX component_footprints_item ON component_footprints (item_id, component_id);

  CREATE TABLE attachments (
    id text PRIMARY KEY,
    component_id text REFERENCES components (id) ON DELETE SET NULL,
    name text NOT NULL,
    kind text NOT NULL,
    content_type text NOT NULL,
    size bigint,
    sha256 text,
    url text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE INDEX attachments_component ON attachments (component_id, id);
  CREATE INDEX attachments_sha256 ON attachments (sha256) WHERE sha256 IS NOT NULL;

  CREATE TABLE locations (
    id text PRIMARY KEY,
    name text NOT NULL,
    parent_id text REFERENCES locations (id),
    description text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL,
    name_key text
  );
  CREATE INDEX locations_parent ON locations (parent_id, name);
  CREATE UNIQUE INDEX locations_sibling_name_key ON locations (coalesce(parent_id, ''), name_key);

  CREATE TABLE stock (
    component_id text NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    location_id text NOT NULL REFERENCES locations (id),
    quantity bigint NOT NULL CHECK (quantity >= 0),
    updated_at text NOT NULL,
    PRIMARY KEY (component_id, location_id)
  );
  CREATE INDEX stock_location ON stock (location_id, component_id);
  CREATE TABLE stock_movements (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    component_id text NOT NULL,
    location_id text NOT NULL,
    delta bigint NOT NULL,
    reason text,
    at text NOT NULL
  );

  CREATE TABLE connectors (
    id text PRIMARY KEY,
    type text NOT NULL,
    name text NOT NULL,
    enabled integer NOT NULL,
    config text NOT NULL,
    secret text,
    previous_secret text,
    previous_secret_expires_at text,
    code text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE TABLE runs (
    id text PRIMARY KEY,
    connector_id text NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
    trigger text NOT NULL,
    status text NOT NULL,
    total integer NOT NULL,
    batches_total integer NOT NULL,
    batches_succeeded integer NOT NULL DEFAULT 0,
    batches_failed integer NOT NULL DEFAULT 0,
    entities_sent integer NOT NULL DEFAULT 0,
    error text,
    created_at text NOT NULL,
    started_at text,
    finished_at text,
    resumed_at text,
    logs text NOT NULL DEFAULT '[]',
    entities_skipped integer NOT NULL DEFAULT 0
  );
  CREATE INDEX runs_active ON runs (status) WHERE status IN ('queued', 'running');
  CREATE INDEX runs_connector ON runs (connector_id, id);
  CREATE TABLE run_batches (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx integer NOT NULL,
    webhook_id text NOT NULL,
    ids text NOT NULL,
    size integer NOT NULL,
    status text NOT NULL,
    attempts text NOT NULL DEFAULT '[]',
    last_status integer,
    error text,
    body bytea,
    mark bigint,
    sent integer NOT NULL DEFAULT 0,
    skipped integer NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, idx)
  );

  CREATE TABLE documents (
    id text PRIMARY KEY,
    collection text NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    data text NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );

  CREATE FUNCTION component_events_view() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE components SET view_seq = NEW.seq WHERE id = NEW.component_id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER component_events_view AFTER INSERT ON component_events
    FOR EACH ROW WHEN (NEW.snapshot IS NOT NULL) EXECUTE FUNCTION component_events_view();

  CREATE FUNCTION component_totals_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      IF NEW.deleted_at IS NULL THEN UPDATE component_totals SET live = live + 1; END IF;
    ELSIF TG_OP = 'DELETE' THEN
      IF OLD.deleted_at IS NULL THEN UPDATE component_totals SET live = live - 1; END IF;
    ELSIF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN
      UPDATE component_totals SET live = live + CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER component_totals_count AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON components
    FOR EACH ROW EXECUTE FUNCTION component_totals_count();
  `,
  // Attachment bytes, by SHA-256: in the database, so every server reaches them (decision 0312).
  /* sql */ `
  CREATE TABLE blobs (
    sha256 text PRIMARY KEY,
    bytes bytea NOT NULL
  );
  `,
  // KiCad fields per component (decision 0632), as in sqlite/schema.ts: stored views and history
  // gain them with the values every component had until now. Written to be safe to run
  // twice (IF NOT EXISTS, views that have them skipped).
  /* sql */ `
  ALTER TABLE components ADD COLUMN IF NOT EXISTS kicad_value text;
  ALTER TABLE components ADD COLUMN IF NOT EXISTS exclude_from_bom integer NOT NULL DEFAULT 0;
  ALTER TABLE components ADD COLUMN IF NOT EXISTS exclude_from_board integer NOT NULL DEFAULT 0;
  ALTER TABLE components ADD COLUMN IF NOT EXISTS exclude_from_sim integer NOT NULL DEFAULT 0;
  UPDATE component_events
    SET snapshot = replace(snapshot, ',"createdAt":', ',"kicadValue":null,"excludeFromBom":false,"excludeFromBoard":false,"excludeFromSim":false,"createdAt":')
    WHERE snapshot IS NOT NULL AND strpos(snapshot, '"kicadValue":') = 0;
  `,
  // Categories as records (decision 0408), as sqlite/schema.ts's addCategoryRecords makes them
  // from the components' paths. Names compare by lower() among siblings here (a
  // migration is SQL on this engine; the stores compare by foldKey); ids are
  // cat_ and 26 upper-case hex digits, which the id pattern accepts.
  /* sql */ `
  CREATE TABLE categories (
    id text PRIMARY KEY,
    name text NOT NULL,
    parent_id text REFERENCES categories (id),
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE INDEX categories_parent ON categories (parent_id);
  DO $$
  DECLARE
    path text;
    segment text;
    parent text;
    found text;
    at text := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  BEGIN
    FOR path IN SELECT category FROM components WHERE category IS NOT NULL ORDER BY id LOOP
      parent := NULL;
      FOREACH segment IN ARRAY string_to_array(path, '/') LOOP
        CONTINUE WHEN segment = '';
        SELECT id INTO found FROM categories WHERE parent_id IS NOT DISTINCT FROM parent AND lower(name) = lower(segment) ORDER BY id LIMIT 1;
        IF found IS NULL THEN
          found := 'cat_' || upper(substr(md5(random()::text || clock_timestamp()::text || segment), 1, 26));
          INSERT INTO categories (id, name, parent_id, created_at, updated_at, version) VALUES (found, segment, parent, at, at, 1);
        END IF;
        parent := found;
      END LOOP;
    END LOOP;
  END $$;
  `,
  // Suggest's prefix tier compares lower(x) COLLATE "C" (the dialect's nocase, sql.ts):
  // without these, a prefix of an IPN or a part number read every row.
  /* sql */ `
  CREATE INDEX components_ipn_folded ON components (lower(ipn::text) COLLATE "C");
  CREATE INDEX mpns_part_number_folded ON mpns (lower(part_number::text) COLLATE "C");
  `,
  // Search's GIN indexes take each change at once instead of in a pending list. Every
  // component write touches them (updated_at is indexed, so no update is HOT), and every
  // search read the whole pending list, which made word queries and suggest much slower on
  // a large library while durable writes gained nothing from it (measured by
  // `npm run bench -- --only=postgres`). The entries pending now go in.
  /* sql */ `
  ALTER INDEX components_words SET (fastupdate = off);
  ALTER INDEX components_trgm SET (fastupdate = off);
  ALTER INDEX mpns_words SET (fastupdate = off);
  ALTER INDEX mpns_trgm SET (fastupdate = off);
  ALTER INDEX tags_trgm SET (fastupdate = off);
  SELECT gin_clean_pending_list(i::regclass) FROM unnest(ARRAY['components_words', 'components_trgm', 'mpns_words', 'mpns_trgm', 'tags_trgm']) AS i;
  `,
  // Accounts, sign-in sessions, API tokens, the audit trail and server settings, as in
  // sqlite/schema.ts (decision 1500).
  /* sql */ `
  CREATE TABLE users (
    id text PRIMARY KEY,
    username text NOT NULL UNIQUE,
    display_name text NOT NULL,
    role text NOT NULL,
    password_hash text NOT NULL,
    disabled integer NOT NULL DEFAULT 0,
    last_login_at text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE TABLE auth_sessions (
    id_hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users (id),
    created_at text NOT NULL,
    last_seen_at text NOT NULL,
    expires_at text NOT NULL
  );
  CREATE INDEX auth_sessions_user ON auth_sessions (user_id);
  CREATE TABLE api_tokens (
    id text PRIMARY KEY,
    name text NOT NULL,
    scope text NOT NULL,
    owner_id text NOT NULL REFERENCES users (id),
    hash text NOT NULL UNIQUE,
    prefix text NOT NULL,
    created_at text NOT NULL,
    expires_at text,
    last_used_at text
  );
  CREATE INDEX api_tokens_owner ON api_tokens (owner_id, created_at);
  CREATE TABLE audit_log (
    seq bigint PRIMARY KEY,
    at text NOT NULL,
    actor_kind text NOT NULL,
    actor_id text,
    actor_name text NOT NULL,
    channel text NOT NULL,
    request_id text,
    action text NOT NULL,
    target_type text,
    target_id text,
    comment text,
    details text,
    prev_hash text NOT NULL,
    hash text NOT NULL
  );
  CREATE INDEX audit_log_at ON audit_log (at);
  CREATE INDEX audit_log_action ON audit_log (action, seq);
  CREATE INDEX audit_log_target ON audit_log (target_id, seq);
  CREATE INDEX audit_log_actor ON audit_log (actor_id, seq);
  CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL, updated_at text NOT NULL);
  ALTER TABLE component_events
    ADD COLUMN actor_kind text, ADD COLUMN actor_id text, ADD COLUMN actor_name text, ADD COLUMN channel text,
    ADD COLUMN comment text, ADD COLUMN request_id text, ADD COLUMN reverted_to integer;
  ALTER TABLE runs ADD COLUMN started_by text;
  `,
  // Parameter templates, import rows and saved views, as in sqlite/schema.ts (decisions 0440, 0615, 1508).
  /* sql */ `
  ALTER TABLE parameter_types ADD COLUMN choices text, ADD COLUMN min_value double precision, ADD COLUMN max_value double precision;
  CREATE TABLE category_templates (
    category_id text NOT NULL REFERENCES categories (id),
    parameter_type_id text NOT NULL REFERENCES parameter_types (id),
    position integer NOT NULL,
    required integer NOT NULL DEFAULT 0,
    is_value integer NOT NULL DEFAULT 0,
    PRIMARY KEY (category_id, parameter_type_id)
  );
  CREATE INDEX category_templates_type ON category_templates (parameter_type_id);
  CREATE TABLE import_rows (
    import_id text NOT NULL,
    row_no integer NOT NULL,
    cells text NOT NULL,
    outcome text,
    outcome_kind text,
    PRIMARY KEY (import_id, row_no)
  );
  CREATE TABLE saved_views (
    id text PRIMARY KEY,
    owner_id text NOT NULL,
    name text NOT NULL,
    state text NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE UNIQUE INDEX saved_views_owner_name ON saved_views (owner_id, name);
  `,
  // The peers' keys of imported parts and companies, as in sqlite/schema.ts (decision 0640).
  /* sql */ `
  CREATE TABLE external_refs (
    source text NOT NULL,
    kind text NOT NULL,
    key text NOT NULL,
    target text NOT NULL,
    updated_at text NOT NULL,
    PRIMARY KEY (source, kind, key)
  );
  CREATE INDEX external_refs_target ON external_refs (kind, target);
  `,
  // The live parts of a category and of a status, as in sqlite/schema.ts (decision 0209).
  /* sql */ `
  DROP INDEX IF EXISTS components_category;
  CREATE INDEX components_category_folded ON components (lower(category) COLLATE "C") WHERE deleted_at IS NULL;
  CREATE INDEX components_status ON components (status) WHERE deleted_at IS NULL;
  `,
  // A push plans its batches as it goes, as in sqlite/schema.ts (decision 0320).
  /* sql */ `
  ALTER TABLE runs ADD COLUMN plan_size integer, ADD COLUMN plan_up_to text, ADD COLUMN plan_after text, ADD COLUMN planning integer NOT NULL DEFAULT 0;
  `,
  // Inbound sources, their offers and the provenance of fields, as in sqlite/schema.ts (decision 1600).
  /* sql */ `
  CREATE TABLE sources (
    id text PRIMARY KEY,
    type text NOT NULL,
    name text NOT NULL,
    config text NOT NULL,
    secrets text NOT NULL,
    refresh text,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    version integer NOT NULL
  );
  CREATE TABLE component_offers (
    component_id text NOT NULL,
    source_id text NOT NULL,
    position integer NOT NULL,
    ref text NOT NULL,
    supplier text NOT NULL,
    sku text,
    url text,
    stock bigint,
    minimum_quantity bigint,
    multiple bigint,
    packaging text,
    currency text,
    price_breaks text NOT NULL,
    fetched_at text NOT NULL,
    PRIMARY KEY (component_id, source_id, position)
  );
  CREATE TABLE field_provenance (
    component_id text NOT NULL,
    field text NOT NULL,
    source_id text NOT NULL,
    source_type text NOT NULL,
    source_name text NOT NULL,
    ref text NOT NULL,
    at text NOT NULL,
    PRIMARY KEY (component_id, field)
  );
  `,
  // Filtered lists at a million parts, planned from statistics that describe them (decision 0321):
  // - each component's words, part numbers included, in a column of its own that the writes keep
  //   (componentWordsSql below; dialect.ts), so testing a part reads a stored tsvector instead of parsing its text
  //   (3 µs a part), and one condition on one table gives the planner one estimate;
  // - each type's values in the order of their parts, so a range is read as a stream of parts
  //   that stops at a page or at the count's bound;
  // - the values of each type (type and numeric together) and the folded category (an expression
  //   of a partial index, whose statistics PostgreSQL ignores), which it estimated at a tenth and
  //   a fiftieth of the parts they hold.
  // Part numbers' own words (MPN suggestions) split the same way.
  // Runs once over the whole library: a minute or two at a million parts.
  /* sql */ `
  ALTER TABLE components ADD COLUMN words tsvector;
  UPDATE components c SET words = ${componentWordsSql('c')};
  CREATE INDEX components_search_words ON components USING gin (words) WITH (fastupdate = off);
  DROP INDEX IF EXISTS components_words;
  DROP INDEX mpns_words;
  CREATE INDEX mpns_words ON mpns USING gin (${wordsOf('part_number::text')}) WITH (fastupdate = off);
  CREATE INDEX component_parameters_type_component ON component_parameters (type, component_id, numeric);
  CREATE STATISTICS component_parameters_type_numeric (mcv) ON type, numeric FROM component_parameters;
  CREATE STATISTICS components_category_folded ON (lower(category)) FROM components;
  ANALYZE components, component_parameters;
  `,
  // A category's live parts in name order, as in sqlite/schema.ts (decision 0321).
  /* sql */ `
  DROP INDEX IF EXISTS components_category_folded;
  CREATE INDEX components_category_folded ON components (lower(category) COLLATE "C", lower(name) COLLATE "C", id) WHERE deleted_at IS NULL;
  `,
]

/**
 * A component's searchable words (the list's `q` and suggest's word tier):
 * name, IPN, description and part numbers, as one `simple` tsvector, the same
 * text SQLite's components_fts holds. `c` is the components row's alias.
 */
export function componentWordsSql(c: string): string {
  return wordsOf(`${c}.name || ' ' || ${c}.ipn::text || ' ' || coalesce(${c}.description, '') || ' ' || coalesce((SELECT string_agg(m.part_number::text, ' ' ORDER BY m.position, m.id) FROM mpns m WHERE m.component_id = ${c}.id), '')`)
}

/**
 * The `simple` tsvector of `text` split at every character that is neither a
 * letter nor a digit, as the query's words are (search.ts, toTsQuery) and as
 * SQLite's tokenizer splits: PostgreSQL's parser alone reads `WB-778` as `wb`
 * and the number `-778`, and `4.7u` as `4.7` and `u`, which no query's words match.
 */
export function wordsOf(text: string): string {
  return `to_tsvector('simple', regexp_replace(${text}, '[^[:alnum:]]+', ' ', 'g'))`
}

/** The lock key that serialises migrations (and writes: see engine.ts) across servers. */
export const MIGRATION_LOCK = 0x636f6d70 // 'comp'

/**
 * Brings the schema in the connection's search_path up to date, in one
 * transaction under an advisory lock, so servers starting together migrate
 * once. Returns whether it changed anything.
 */
export async function migratePostgres(client: PoolClient): Promise<boolean> {
  await client.query('BEGIN')
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await client.query('CREATE EXTENSION IF NOT EXISTS citext WITH SCHEMA public')
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public')
    await client.query('CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)')
    const row = (await client.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`)).rows[0]
    const current = row ? Number(row.value) : 0
    // A newer complib migrated this database: this one would not keep what the newer steps
    // added (the words column, written by every write of a part's text), and writing its own
    // version back made the next newer server run those steps again, and fail.
    if (current > MIGRATIONS.length) {
      throw new Error(`[storage] the PostgreSQL schema is at version ${current}, newer than this complib's ${MIGRATIONS.length}: run the newer complib (on every server)`)
    }
    for (let i = current; i < MIGRATIONS.length; i++) await client.query(MIGRATIONS[i]!)
    if (current !== MIGRATIONS.length) {
      await client.query(`INSERT INTO meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [String(MIGRATIONS.length)])
    }
    await client.query('COMMIT')
    return current !== MIGRATIONS.length
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
