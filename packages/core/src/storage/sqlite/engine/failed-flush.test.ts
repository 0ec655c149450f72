import { fdatasync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSqliteStorage, type SqliteStorage } from '../storage'
import type { FlushFile } from './wal-sync'

/**
 * A failed flush of the write-ahead log stops writes for good (decision 0207):
 * the failure is injected into the flush (`flushFile`), as an `fdatasync`
 * returning EIO would. The server-level test with a real failing
 * `fdatasync` is api-server's `reliability/failed-flush.test.ts`.
 */

const dirs: string[] = []
const open: SqliteStorage[] = []
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => {})
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A flush that fails the next `failures` calls with EIO, each after `delayMs`; the others are `fs.fdatasync`. */
function faultyFlush(): FlushFile & { fail(failures: number, delayMs?: number): void; calls: number } {
  let failing = 0
  let delay = 0
  const flush = Object.assign(
    (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => {
      flush.calls++
      if (failing === 0) return fdatasync(fd, done)
      failing--
      const error: NodeJS.ErrnoException = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5, syscall: 'fdatasync' })
      setTimeout(() => done(error), delay)
    },
    {
      calls: 0,
      fail(failures: number, delayMs = 0) {
        failing = failures
        delay = delayMs
      },
    },
  )
  return flush
}

async function library(flushFile?: FlushFile, logs?: string[]) {
  const dir = dirs[0] ?? mkdtempSync(join(tmpdir(), 'complib-flush-'))
  if (!dirs.length) dirs.push(dir)
  const storage = await createSqliteStorage({ dir, flushFile, log: (line) => void logs?.push(line) })
  open.push(storage)
  return storage
}

describe('a failed flush of the write-ahead log', () => {
  it('fails that write, refuses every later one (even once flushing works again), keeps reads, and says so once', async () => {
    const flush = faultyFlush()
    const logs: string[] = []
    const storage = await library(flush, logs)
    const kept = await storage.components.create({ name: 'before the failure' })
    expect(storage.writesStopped?.()).toBeNull()

    flush.fail(1)
    const failed = await storage.components.create({ name: 'flushed in vain' }).catch((error: unknown) => error)
    expect(failed).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect((failed as Error).message).toContain('may be lost')
    expect((failed as Error).message).toContain('EIO')

    // The next flush would succeed: the write is refused all the same, before anything changes.
    const calls = flush.calls
    const refused = await storage.components.create({ name: 'after the failure' }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect((refused as Error).message).toMatch(/^writes are stopped since .*: flushing the write-ahead log to the disk failed \(EIO.*restart the server/)
    expect(flush.calls).toBe(calls)
    await expect(storage.components.update(kept.id, { description: 'edited' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    await expect(storage.transaction(async (tx) => tx.tags.create({ name: 'x' }))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' })

    // Reads go on.
    expect((await storage.components.get(kept.id)).description).toBeNull()
    expect((await storage.components.list({ limit: 10, sort: 'name', includeDeleted: false })).items.map((c) => c.name).sort()).toEqual(['before the failure', 'flushed in vain'])
    expect(storage.writesStopped?.()).toMatch(/^writes are stopped since/)
    expect(logs.filter((l) => l.includes('WRITES STOPPED'))).toHaveLength(1)
    expect(logs.every((l) => !l.includes('\n'))).toBe(true)
  })

  it('acknowledges none of the writes waiting for the flush after the failed one', async () => {
    const flush = faultyFlush()
    const storage = await library(flush)
    // The first flush fails after 50 ms; the writes made meanwhile wait for the next flush, which would succeed.
    flush.fail(1, 50)
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => storage.components.create({ name: `writer ${i}` })))
    expect(outcomes.map((o) => o.status)).toEqual(Array(8).fill('rejected'))
    expect(flush.calls).toBe(1)
  })

  it('is forgotten by a restart, which reads the database again from the disk', async () => {
    const flush = faultyFlush()
    const storage = await library(flush)
    await storage.components.create({ name: 'one' })
    flush.fail(1)
    await storage.components.create({ name: 'two' }).catch(() => {})
    await storage.close()
    open.splice(0)

    const restarted = await library()
    expect(restarted.writesStopped?.()).toBeNull()
    await restarted.components.create({ name: 'three' })
    // Nothing was lost here (the disk did not drop the pages), so the unacknowledged write is there too.
    expect((await restarted.components.list({ limit: 10, sort: 'name', includeDeleted: false })).items.map((c) => c.name).sort()).toEqual(['one', 'three', 'two'])
  })
})
