// Which PostgreSQL driver (decision 0301): node-postgres (`pg`, what the
// engine uses) against `postgres` (porsager) on complib's hot queries, on the
// bench's PostgreSQL copy of the library, sequentially and 16 at a time:
// - read one: a component's stored view and version, the query GET
//   /api/components/:id runs (a read-only transaction around it, as the engine does);
// - page of 50: ids, sort key and view_seq of 50 components by name;
// - durable write: the engine's write transaction (the advisory lock, an UPDATE
//   of a component and an INSERT of a history event), committed.
import pg from 'pg'
import postgres from 'postgres'
import type { BenchRow, HttpBenchContext } from './http'
import { int, median } from './lib/load'

const ROUNDS = 3

export async function benchDrivers(ctx: HttpBenchContext, url: string): Promise<BenchRow[]> {
  const seconds = ctx.quick ? 1 : 3
  const pool = new pg.Pool({ connectionString: url, max: 16 })
  const sql = postgres(url, { max: 16, onnotice: () => {} })
  try {
    const ids = (await pool.query<{ id: string }>('SELECT id FROM components WHERE deleted_at IS NULL ORDER BY id LIMIT 1000')).rows.map((r) => r.id)
    const pick = (i: number) => ids[i % ids.length]!
    await pool.query(`CREATE TABLE IF NOT EXISTS bench_driver_writes (n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, component_id text NOT NULL, at text NOT NULL)`)
    const cases: Array<{ name: string; pg: (i: number) => Promise<unknown>; postgres: (i: number) => Promise<unknown> }> = [
      {
        name: 'read one (a view and its version, read-only transaction)',
        pg: async (i) => {
          const c = await pool.connect()
          try {
            await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
            await c.query({ text: 'SELECT convert_to((SELECT e.snapshot FROM component_events e WHERE e.seq = c.view_seq), $2), c.version FROM components c WHERE c.id = $1', values: [pick(i), 'UTF8'], rowMode: 'array' })
            await c.query('COMMIT')
          } finally {
            c.release()
          }
        },
        postgres: (i) =>
          sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', (tx) => tx`SELECT convert_to((SELECT e.snapshot FROM component_events e WHERE e.seq = c.view_seq), 'UTF8'), c.version FROM components c WHERE c.id = ${pick(i)}`.values()),
      },
      {
        name: 'page of 50 by name',
        pg: (i) => pool.query('SELECT c.id, lower(c.name) COLLATE "C" AS k, c.view_seq FROM components c WHERE c.deleted_at IS NULL AND lower(c.name) COLLATE "C" > lower($1::text) COLLATE "C" ORDER BY lower(c.name) COLLATE "C", c.id LIMIT 51', [`r ${i % 100}`]),
        postgres: (i) => sql`SELECT c.id, lower(c.name) COLLATE "C" AS k, c.view_seq FROM components c WHERE c.deleted_at IS NULL AND lower(c.name) COLLATE "C" > lower(${`r ${i % 100}`}::text) COLLATE "C" ORDER BY lower(c.name) COLLATE "C", c.id LIMIT 51`,
      },
      {
        name: 'durable write (lock, UPDATE, INSERT, COMMIT)',
        pg: async (i) => {
          const c = await pool.connect()
          try {
            await c.query('BEGIN; SELECT pg_advisory_xact_lock(1131376241)')
            await c.query('UPDATE components SET updated_at = $1 WHERE id = $2', [new Date().toISOString(), pick(i)])
            await c.query('INSERT INTO bench_driver_writes (component_id, at) VALUES ($1, $2)', [pick(i), new Date().toISOString()])
            await c.query('COMMIT')
          } finally {
            c.release()
          }
        },
        postgres: (i) =>
          sql.begin(async (tx) => {
            await tx`SELECT pg_advisory_xact_lock(1131376241)`
            await tx`UPDATE components SET updated_at = ${new Date().toISOString()} WHERE id = ${pick(i)}`
            await tx`INSERT INTO bench_driver_writes (component_id, at) VALUES (${pick(i)}, ${new Date().toISOString()})`
          }),
      },
    ]
    const rows: BenchRow[] = []
    for (const c of cases) {
      for (const concurrency of [1, 16]) {
        const rate = { pg: [] as number[], postgres: [] as number[] }
        await _rate(c.pg, concurrency, 0.5)
        await _rate(c.postgres, concurrency, 0.5)
        for (let r = 0; r < ROUNDS; r++) {
          rate.pg.push(await _rate(c.pg, concurrency, seconds))
          rate.postgres.push(await _rate(c.postgres, concurrency, seconds))
        }
        const [a, b] = [median(rate.pg), median(rate.postgres)]
        rows.push({
          scenario: `PostgreSQL driver: ${c.name}, ${concurrency} at a time`,
          subject: `pg ${int(a)}/s`,
          baseline: `postgres ${int(b)}/s`,
          ratio: `${(a / b).toFixed(2)}×`,
          target: '— (chooses the driver)',
        })
      }
    }
    await pool.query('DROP TABLE IF EXISTS bench_driver_writes')
    return rows
  } finally {
    await pool.end()
    await sql.end()
  }
}

/** Operations per second with `concurrency` loops running `op` for `seconds`. */
async function _rate(op: (i: number) => Promise<unknown>, concurrency: number, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000
  let done = 0
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = w; performance.now() < end; i += concurrency) {
        await op(i)
        done++
      }
    }),
  )
  return done / seconds
}
