import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { ComplibError } from '@complib/core'

/** Where attachment bytes live, addressed by their SHA-256. */
export interface BlobStore {
  /** Stores the bytes durably (fsync'd before it resolves); returns their digest. Storing the same bytes twice keeps one copy. */
  put(bytes: Uint8Array): Promise<string>
  get(sha256: string): Promise<Uint8Array>
  delete(sha256: string): Promise<void>
}

/** Blobs as files under `dir/<first two hex>/<sha256>`, written to a temporary file, fsync'd, then renamed. */
export function createFileBlobStore(dir: string): BlobStore {
  const pathOf = (sha: string) => join(dir, sha.slice(0, 2), sha)
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex')
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
      return sha
    },
    async get(sha) {
      try {
        return await readFile(pathOf(_checkSha(sha)))
      } catch (error) {
        throw new ComplibError('NOT_FOUND', `the stored content ${sha} is missing from the data folder`, { cause: error })
      }
    },
    async delete(sha) {
      await rm(pathOf(_checkSha(sha)), { force: true })
    },
  }
}

/** Blobs in memory, for an in-memory library (tests, dry runs). */
export function createMemoryBlobStore(): BlobStore {
  const blobs = new Map<string, Uint8Array>()
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex')
      blobs.set(sha, new Uint8Array(bytes))
      return sha
    },
    async get(sha) {
      const bytes = blobs.get(sha)
      if (!bytes) throw new ComplibError('NOT_FOUND', `the stored content ${sha} is missing`)
      return bytes
    },
    async delete(sha) {
      blobs.delete(sha)
    },
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
