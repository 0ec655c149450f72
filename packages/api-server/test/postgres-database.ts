import pg from 'pg'

// A whole PostgreSQL database of a test's own (not a schema): for the tests that
// start real servers on it, as an operator would with `--database`.

/** Creates `database` through `adminUrl`; returns null, or why it could not (the test is then skipped, saying so). */
export async function createDatabase(adminUrl: string, database: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query(`CREATE DATABASE ${database}`)
    return null
  } catch (error) {
    return (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Drops `database`, ending the sessions still on it. */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).finally(() => client.end())
}
