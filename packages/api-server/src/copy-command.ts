import { join, resolve } from 'node:path'
import { copyLibrary, type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { type BlobStore, createDatabaseBlobStore, createFileBlobStore } from './blobs'

/** One end of a copy: a data folder (the embedded SQLite library) or a PostgreSQL URL. */
interface Library {
  storage: Storage
  blobs: BlobStore
  label: string
}

/** Whether a `--from`/`--to` value names a PostgreSQL database rather than a data folder. */
export function isDatabaseUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value)
}

async function _open(place: string, log: (message: string) => void): Promise<Library> {
  if (isDatabaseUrl(place)) {
    const storage = await createPostgresStorage({ url: place, log })
    const url = new URL(place)
    return { storage, blobs: createDatabaseBlobStore(storage.blobs), label: url.host + url.pathname }
  }
  const dir = resolve(place)
  const storage = await createSqliteStorage({ dir, log })
  return { storage, blobs: createFileBlobStore(join(dir, 'attachments')), label: dir }
}

/**
 * `complib copy --from <data folder | postgres URL> --to <data folder | postgres URL>`:
 * the whole library (see copyLibrary) and the bytes of its attachments, into
 * an empty target. The servers of the source must be stopped (a data folder
 * in use is refused by its lock).
 */
export async function copyCommand(from: string, to: string, print: (line: string) => void = console.log): Promise<void> {
  const log = (message: string) => print(message)
  const source = await _open(from, log)
  let target: Library | undefined
  try {
    target = await _open(to, log)
    const report = await copyLibrary(source.storage, target.storage, { log })
    let files = 0
    let bytes = 0
    const seen = new Set<string>()
    let cursor: string | undefined
    do {
      const page = await source.storage.attachments.list({ limit: 500, cursor })
      for (const attachment of page.items) {
        if (!attachment.sha256 || seen.has(attachment.sha256)) continue
        seen.add(attachment.sha256)
        const content = await source.blobs.get(attachment.sha256)
        // The record is in already (copied with its table): nothing to commit, and the bytes stay.
        await target.blobs.put(content, async () => undefined, async () => 1)
        files++
        bytes += content.byteLength
      }
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    const rows = report.tables.reduce((n, t) => n + t.rows, 0)
    print(`copied ${rows.toLocaleString('en')} rows in ${report.tables.length} tables and ${files} attachment files (${bytes.toLocaleString('en')} bytes) from ${source.label} to ${target.label}`)
  } finally {
    await target?.storage.close()
    await source.storage.close()
  }
}
