import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DurableDatabase } from './durable-database'
import { journalPath, listJournalGenerations } from './journal'
import type { SqlExecutor } from './sql-executor'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'complib-durable-'))
  dirs.push(dir)
  return dir
}

function migrate(ex: SqlExecutor): boolean {
  ex.run('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  if (ex.get(`SELECT 1 FROM meta WHERE key = 'schema_version'`)) return false
  ex.run('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body BLOB)')
  ex.run(`INSERT INTO meta (key, value) VALUES ('schema_version', '1')`)
  return true
}

const open = (dir: string, extra: Partial<Parameters<typeof DurableDatabase.open>[0]> = {}) => DurableDatabase.open({ dir, migrate, ...extra })
const insert = (db: DurableDatabase, name: string) => db.run((ex) => ex.run('INSERT INTO items (name) VALUES (?)', [name]))
const names = (db: DurableDatabase) => db.run((ex) => ex.all<{ name: string }>('SELECT name FROM items ORDER BY id').map((r) => r.name))

/** Simulates kill -9: the process dies without close(); only what reached the files counts. */
async function crash(db: DurableDatabase): Promise<void> {
  // Drop the lock the way a dead process would leave it (a stale pid is taken over).
  await (db as unknown as { journal: { close(): Promise<void> } }).journal.close()
  ;(db as unknown as { lockFd: number | null }).lockFd = null
}

describe('durable database', () => {
  it('keeps acknowledged writes across a reopen without a clean close', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await Promise.all(['a', 'b', 'c'].map((n) => insert(db, n)))
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const again = await open(dir)
    expect(await names(again)).toEqual(['a', 'b', 'c'])
    await again.close()
  })

  it('rolls back every write of a run that throws', async () => {
    const db = await open(tempDir())
    await insert(db, 'kept')
    await expect(
      db.run((ex) => {
        ex.run('INSERT INTO items (name) VALUES (?)', ['half'])
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await names(db)).toEqual(['kept'])
    await db.close()
  })

  it('groups concurrent commits into fewer fsyncs than writes', async () => {
    const dir = tempDir()
    const db = await open(dir)
    const handle = (db as unknown as { journal: { handle: { datasync: () => Promise<void> } } }).journal.handle
    const datasync = handle.datasync.bind(handle)
    let fsyncs = 0
    handle.datasync = () => {
      fsyncs++
      return datasync()
    }
    await Promise.all(Array.from({ length: 200 }, (_, i) => insert(db, `n${i}`)))
    expect((await names(db)).length).toBe(200)
    expect(fsyncs).toBeGreaterThan(0)
    expect(fsyncs).toBeLessThan(20)
    await db.close()
    const again = await open(dir)
    expect((await names(again)).length).toBe(200)
    await again.close()
  })

  it('drops a torn journal tail and keeps every whole record before it', async () => {
    const dir = tempDir()
    const db = await open(dir)
    for (const n of ['a', 'b', 'c']) await insert(db, n)
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const [generation] = listJournalGenerations(dir)
    const path = journalPath(dir, generation!)
    const size = statSync(path).size
    truncateSync(path, size - 3) // the last record was cut mid-write
    const again = await open(dir)
    expect(await names(again)).toEqual(['a', 'b'])
    // the tail is gone from the file, so new records follow the last whole one
    await insert(again, 'd')
    await crash(again)
    rmSync(join(dir, 'complib.lock'))
    const third = await open(dir)
    expect(await names(third)).toEqual(['a', 'b', 'd'])
    await third.close()
  })

  it('stops at a record whose checksum fails', async () => {
    const dir = tempDir()
    const db = await open(dir)
    for (const n of ['a', 'b']) await insert(db, n)
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const path = journalPath(dir, listJournalGenerations(dir)[0]!)
    const bytes = readFileSync(path)
    bytes[bytes.length - 2]! ^= 0xff // flip a byte in the last record's payload
    writeFileSync(path, bytes)
    const again = await open(dir)
    expect(await names(again)).toEqual(['a'])
    await again.close()
  })

  it('ignores garbage appended after the last record', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await insert(db, 'a')
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    appendFileSync(journalPath(dir, listJournalGenerations(dir)[0]!), Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]))
    const again = await open(dir)
    expect(await names(again)).toEqual(['a'])
    await again.close()
  })

  it('refuses a corrupt snapshot with a clear error and changes no file', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await insert(db, 'a')
    await db.close()
    const snapshot = join(dir, 'complib.sqlite')
    const bytes = readFileSync(snapshot)
    bytes.fill(0x41, 100, bytes.length) // keep the header, wreck the pages
    writeFileSync(snapshot, bytes)
    const before = readdirSync(dir).sort()
    await expect(open(dir)).rejects.toThrow(/complib\.sqlite is corrupt.*restore it from a backup/)
    expect(readdirSync(dir).sort()).toEqual(before)
    expect(readFileSync(snapshot).equals(bytes)).toBe(true)
  })

  it('trusts a snapshot whose checksum matches, and checks every page of one without (a crash between the two files)', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await insert(db, 'a')
    await db.close()
    const logs: string[] = []
    const again = await open(dir, { log: (m) => logs.push(m) })
    expect(await names(again)).toEqual(['a'])
    await again.close()
    expect(logs.filter((l) => l.includes('checked every page'))).toEqual([])
    rmSync(join(dir, 'complib.sqlite.sum'))
    const third = await open(dir, { log: (m) => logs.push(m) })
    expect(await names(third)).toEqual(['a'])
    await third.close()
    expect(logs.filter((l) => l.includes('checked every page'))).toHaveLength(1)
  })

  it('closes with a snapshot of every write, even while an earlier snapshot was being written (the next start replays nothing)', async () => {
    const dir = tempDir()
    const db = await open(dir, { snapshotAfterBytes: 2048 })
    // This write passes the threshold and starts a snapshot; the next one lands while its file is
    // written, and the stop comes before that snapshot is done.
    await insert(db, 'x'.repeat(4000))
    await insert(db, 'tail')
    await db.close()
    const journalBytes = readdirSync(dir)
      .filter((f) => f.startsWith('journal-'))
      .reduce((n, f) => n + statSync(join(dir, f)).size, 0)
    expect(journalBytes).toBe(0)
    const again = await open(dir)
    expect((await names(again)).at(-1)).toBe('tail')
    await again.close()
  })

  it('refuses a file that is not a database', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'complib.sqlite'), 'hello')
    await expect(open(dir)).rejects.toThrow(/not a SQLite database/)
  })

  it('takes a snapshot once the journal passes the threshold and deletes old journal files', async () => {
    const dir = tempDir()
    const db = await open(dir, { snapshotAfterBytes: 4096 })
    for (let i = 0; i < 100; i++) await insert(db, `item-${i}-${'x'.repeat(50)}`)
    // the snapshot runs in the background; close() waits for it and takes the last one
    await db.close()
    expect(listJournalGenerations(dir).length).toBe(1)
    const again = await open(dir)
    expect((await names(again)).length).toBe(100)
    await again.close()
  })

  it('recovers writes made after a snapshot from the new journal', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await insert(db, 'before')
    await db.snapshot()
    await insert(db, 'after')
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const again = await open(dir)
    expect(await names(again)).toEqual(['before', 'after'])
    await again.close()
  })

  it('journals binary parameters exactly', async () => {
    const dir = tempDir()
    const db = await open(dir)
    const body = new Uint8Array([0, 1, 2, 250, 255])
    await db.run((ex) => ex.run('INSERT INTO items (name, body) VALUES (?, ?)', ['bin', body]))
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const again = await open(dir)
    const row = await again.run((ex) => ex.get<{ body: Uint8Array }>('SELECT body FROM items'))
    expect([...row!.body]).toEqual([...body])
    await again.close()
  })

  it('refuses a second process on the same data folder', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'complib.lock'), '1') // pid 1 is always alive
    await expect(open(dir)).rejects.toThrow(/in use by process 1/)
  })

  it('refuses a write through a read method, so nothing escapes the journal', async () => {
    const db = await open(tempDir())
    await expect(db.run((ex) => ex.all('INSERT INTO items (name) VALUES (?)', ['x']))).rejects.toThrow(/escape the journal/)
    await db.close()
  })

  it('reloads the durable state when a journal write fails, failing that write', async () => {
    const dir = tempDir()
    const db = await open(dir)
    await insert(db, 'durable')
    const journal = (db as unknown as { journal: { handle: { write: (...a: unknown[]) => Promise<unknown> } } }).journal
    const write = journal.handle.write.bind(journal.handle)
    journal.handle.write = () => Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' }))
    await expect(insert(db, 'lost')).rejects.toMatchObject({ code: 'INSUFFICIENT_STORAGE', status: 507 })
    expect(await names(db)).toEqual(['durable'])
    journal.handle.write = write
    await insert(db, 'later')
    await crash(db)
    rmSync(join(dir, 'complib.lock'))
    const again = await open(dir)
    expect(await names(again)).toEqual(['durable', 'later'])
    await again.close()
  })
})
