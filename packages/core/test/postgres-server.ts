import pg from 'pg'

/** The PostgreSQL the tests use: COMPLIB_TEST_DATABASE_URL, by default the local server's `test` database. */
export const TEST_DATABASE_URL = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/**
 * Why PostgreSQL at `url` cannot be used (null when it answers). Under CI=true
 * an unreachable server throws instead: CI runs the PostgreSQL suites.
 */
export async function probePostgres(url = TEST_DATABASE_URL): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  let unreachable: string | null = null
  try {
    await client.connect()
  } catch (error) {
    unreachable = (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
  if (unreachable !== null && process.env.CI === 'true') throw new Error(`PostgreSQL at ${url} is unreachable (${unreachable}); CI runs the PostgreSQL suites`)
  return unreachable
}
