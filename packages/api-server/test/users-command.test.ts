import { randomBytes } from 'node:crypto'
import { createPostgresStorage } from '@complib/core/postgres'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { runCli } from './cli-process'

/**
 * `complib users add --database postgres://…`: the first admin of a library on
 * PostgreSQL, made from the command line while its servers may be running.
 * (The data folder form is in cli.test.ts.) A database of its own, dropped after.
 */
describe.runIf(process.env.COMPLIB_TEST_STORAGE === 'postgres')('complib users add on PostgreSQL', () => {
  it('adds the account to the database, recorded as a command-line change', async () => {
    const base = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const name = `complib_users_${randomBytes(5).toString('hex')}`
    const admin = new pg.Client({ connectionString: base })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString()
    try {
      const added = await runCli(['users', 'add', 'ada', '--role', 'editor', '--display-name', 'Ada L.', '--password-stdin', '--database', url], {}, undefined, 'correct horse battery\n').done
      expect(added.code, added.out + added.err).toBe(0)
      const storage = await createPostgresStorage({ url })
      try {
        const found = await storage.users.findCredentials('ada')
        expect(found?.user).toMatchObject({ username: 'ada', displayName: 'Ada L.', role: 'editor' })
        expect(found?.passwordHash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/)
        const [entry] = (await storage.audit.list({ limit: 1 })).items
        expect(entry).toMatchObject({ action: 'createUser', actor: { kind: 'cli' }, channel: 'cli', target: { type: 'user', id: found!.user.id } })
      } finally {
        await storage.close()
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }, 60_000)
})
