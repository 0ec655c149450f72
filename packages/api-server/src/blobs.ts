import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { ComplibError } from '@complib/core'
import { type DatabaseBlobs } from '@complib/core/postgres'

/** How many records refer to a digest (`storage.attachments.countBySha256`). */
export type CountUsers = (sha256: string) => Promise<number>

/**
 * Where attachment bytes live, addressed by their SHA-256. Several records may
 * share one copy, so the bytes go only when the last record using them does;
 * the count of users and the removal happen under a lock per digest that an
 * upload also holds from writing its bytes to committing its record, so a
 * delete never counts before the record of a racing upload exists (decision 0106).
 */
export interface BlobStore {
  /**
   * Stores the bytes durably (fsync'd; the same bytes twice keep one copy), then,
   * still under the digest's lock, runs `commit(sha256)`: the write of the record
   * that refers to them. When `commit` throws, the bytes go again unless `users`
   * still counts some.
   */
  put<T>(bytes: Uint8Array, commit: (sha256: string) => Promise<T>, users: CountUsers): Promise<T>
  get(sha256: string): Promise<Uint8Array>
  /** After a record referring to `sha256` was deleted: removes the bytes, under the digest's lock, when `users` counts none. */
  release(sha256: string, users: CountUsers): Promise<void>
}

/** Blobs as files under `dir/<first two hex>/<sha256>`, written to a temporary file, fsync'd, then renamed. */
export function createFileBlobStore(dir: string): BlobStore {
  const pathOf = (sha: string) => join(dir, sha.slice(0, 2), sha)
  return _contentAddressed({
    async write(sha, bytes) {
      const folder = join(dir, sha.slice(0, 2))
      const tmp = join(folder, `.${sha}.${randomBytes(4).toString('hex')}.tmp`)
      try {
        await mkdir(folder, { recursive: true })
        const handle = await open(tmp, 'w')
        try {
          await handle.writeFile(bytes)
          await handle.sync()
        } finally {
          await handle.close()
        }
        await rename(tmp, pathOf(sha))
        const folderHandle = await open(folder, 'r')
        await folderHandle.sync().finally(() => folderHandle.close())
      } catch (error) {
        // A partial file would keep the space a full disk needs back.
        await rm(tmp, { force: true }).catch(() => {})
        throw _storageError(error)
      }
    },
    async read(sha) {
      try {
        return await readFile(pathOf(_checkSha(sha)))
      } catch (error) {
        throw new ComplibError('NOT_FOUND', `the stored content ${sha} is missing from the data folder`, { cause: error })
      }
    },
    async remove(sha) {
      await rm(pathOf(_checkSha(sha)), { force: true })
    },
  })
}

/** Blobs in memory, for an in-memory library (tests, dry runs). */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>()
  return _contentAddressed({
    async write(sha, bytes) {
      blobs.set(sha, new Uint8Array(bytes))
    },
    async read(sha) {
      const bytes = blobs.get(sha)
      if (!bytes) throw new ComplibError('NOT_FOUND', `the stored content ${sha} is missing`)
      return bytes
    },
    async remove(sha) {
      blobs.delete(sha)
    },
  })
}

/**
 * Blobs in the library's PostgreSQL database (table `blobs`), so every server
 * on it reaches them. No lock spans servers: a removal deletes the bytes only
 * while no attachment record refers to them (one statement), and an upload
 * writes its bytes again after its record committed, so a removal that ran in
 * between cannot leave the record without its bytes.
 */
export function createDatabaseBlobStore(blobs: DatabaseBlobs): BlobStore {
  return {
    async put(bytes, commit) {
      const sha = createHash('sha256').update(bytes).digest('hex')
      await blobs.write(sha, bytes)
      let result
      try {
        result = await commit(sha)
      } catch (error) {
        await blobs.removeUnused(sha).catch(() => {})
        throw error
      }
      await blobs.write(sha, bytes)
      return result
    },
    async get(sha) {
      const bytes = await blobs.read(_checkSha(sha))
      if (!bytes) throw new ComplibError('NOT_FOUND', `the stored content ${sha} is missing from the database`)
      return bytes
    },
    release: (sha) => blobs.removeUnused(sha),
  }
}

/** What an engine provides: bytes by digest, nothing about who uses them. */
interface _Bytes {
  write(sha256: string, bytes: Uint8Array): Promise<void>
  read(sha256: string): Promise<Uint8Array>
  remove(sha256: string): Promise<void>
}

/** The reference rules every engine shares: the digest's lock around write + commit and around count + remove. */
function _contentAddressed(engine: _Bytes): BlobStore {
  const withLock = _createLocks()
  const removeUnused = async (sha: string, users: CountUsers) => {
    if ((await users(sha)) === 0) await engine.remove(sha)
  }
  return {
    async put(bytes, commit, users) {
      const sha = createHash('sha256').update(bytes).digest('hex')
      return withLock(sha, async () => {
        await engine.write(sha, bytes)
        try {
          return await commit(sha)
        } catch (error) {
          await removeUnused(sha, users).catch(() => {})
          throw error
        }
      })
    },
    get: (sha) => engine.read(sha),
    release: (sha, users) => withLock(sha, () => removeUnused(sha, users)),
  }
}

/** Runs tasks one after another per key; keys are forgotten once idle. */
function _createLocks(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<void>>()
  return async (key, task) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task)
    const tail = run.then(
      () => {},
      () => {},
    )
    tails.set(key, tail)
    try {
      return await run
    } finally {
      if (tails.get(key) === tail) tails.delete(key)
    }
  }
}

/** A full disk is the client's 507, as for the database; other failures stay 500s with their cause. */
function _storageError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ComplibError('INSUFFICIENT_STORAGE', 'the data folder is full; the file was not saved', { cause: error })
  return error
}

// A digest comes from our own records, but never let one become a path outside the folder.
function _checkSha(sha: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new ComplibError('BAD_REQUEST', 'not a content digest')
  return sha
}
