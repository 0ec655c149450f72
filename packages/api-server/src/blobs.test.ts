import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createFileBlobStore, createMemoryBlobStore, type BlobStore } from './blobs'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const engines: Record<string, () => BlobStore> = {
  memory: createMemoryBlobStore,
  file: () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-blobs-'))
    dirs.push(dir)
    return createFileBlobStore(dir)
  },
}

describe.each(Object.entries(engines))('%s blob store', (_name, create) => {
  const bytes = new TextEncoder().encode('datasheet')
  const sha = createHash('sha256').update(bytes).digest('hex')

  it('keeps the bytes when a release counts users while an upload of them has not committed its record yet', async () => {
    const blobs = create()
    let records = 0
    const users = async () => records
    let entered!: () => void
    const inCommit = new Promise<void>((resolve) => (entered = resolve))
    let commit!: () => void
    const committed = new Promise<void>((resolve) => (commit = resolve))
    const upload = blobs.put(
      bytes,
      async () => {
        entered()
        await committed
        records++
      },
      users,
    )
    // The release of an earlier record with these bytes arrives while the upload is between its write and its record.
    await inCommit
    const release = blobs.release(sha, users)
    await new Promise((resolve) => setTimeout(resolve, 5))
    commit()
    await Promise.all([upload, release])
    expect(records).toBe(1)
    expect(new TextDecoder().decode(await blobs.get(sha))).toBe('datasheet')
  })

  it('drops the bytes of a failed commit unless another record uses them', async () => {
    const blobs = create()
    const refused = () => Promise.reject(new Error('refused'))
    await expect(blobs.put(bytes, refused, async () => 0)).rejects.toThrow('refused')
    await expect(blobs.get(sha)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await blobs.put(bytes, async () => {}, async () => 1)
    await expect(blobs.put(bytes, refused, async () => 1)).rejects.toThrow('refused')
    expect((await blobs.get(sha)).byteLength).toBe(bytes.byteLength)
    await blobs.release(sha, async () => 0)
    await expect(blobs.get(sha)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
