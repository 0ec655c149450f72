import pg from 'pg'

/** Fails the PostgreSQL project at once, with the reason, when its server cannot be reached. */
export default async function setup() {
  const url = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(`the PostgreSQL API suite needs a server at ${url} (${(error as Error).message}); set COMPLIB_TEST_DATABASE_URL, or see CONTRIBUTING in the README`)
  } finally {
    await client.end().catch(() => {})
  }
}
