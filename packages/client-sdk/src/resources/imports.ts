import type { Component, ComponentExportQuery, ComponentExportRequest, ImportCreateQuery, ImportPatch, ImportRowOutcome, ImportRowsQuery, ImportSession, Page } from '@complib/core'
import { iteratePages, readPage } from '../_internal/paging'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, IterateQueryOf, QueryOf } from '../_internal/types'

/**
 * `client.imports`: upload a CSV or JSON file, check the preview and the
 * column mapping, then commit (every row or none).
 *
 * @example
 * const session = await client.imports.create(csvText, { format: 'csv' })
 * if (session.summary.invalid === 0) await client.imports.commit(session.id)
 *
 * @example
 * // A file of more than 1,000 rows is planned and committed as a job: wait for each.
 * const planned = await client.imports.waitFor((await client.imports.create(bigCsv)).id)
 * const done = await client.imports.waitFor((await client.imports.commit(planned.id)).id, { onProgress: (p) => console.log(p.phase, p.done, p.total) })
 * if (done.status === 'failed') console.error(done.failure)
 *
 * @example
 * // Every invalid row, with each of its errors (field, column, message).
 * for await (const r of client.imports.iterateRows(session.id, { outcome: 'invalid' })) console.log(r.row, r.errors)
 */
export function createImportsResource(t: Transport) {
  return {
    create: (file: string | Blob | Uint8Array, query: QueryOf<typeof ImportCreateQuery> = {}): Promise<ImportSession> =>
      t.call('POST', '/imports', { query, rawBody: file as NonNullable<RequestInit['body']>, contentType: query.format === 'json' ? 'application/json' : 'text/csv' }),
    get: (id: string): Promise<ImportSession> => t.call('GET', path`/imports/${id}`),
    /** One page of the file's rows, each with its outcome (create, update, unchanged, invalid), errors and changes. */
    rows: (id: string, query: QueryOf<typeof ImportRowsQuery> = {}): Promise<Page<ImportRowOutcome>> => readPage(t, path`/imports/${id}/rows`, query),
    /** Every row of the file (or of one `outcome`), page after page. */
    iterateRows: (id: string, query: IterateQueryOf<typeof ImportRowsQuery> = {}): AsyncGenerator<ImportRowOutcome, void, undefined> => iteratePages(t, path`/imports/${id}/rows`, query),
    /** Changes the mapping or the upsert key; the preview is recomputed. */
    patch: (id: string, body: ImportPatch, options: IfMatchOptions = {}): Promise<ImportSession> => t.call('PATCH', path`/imports/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/imports/${id}`),
    /** Commits the session: the committed session for a file of up to 1,000 rows; for a larger one, the session `committing` (see waitFor). */
    commit: (id: string): Promise<ImportSession> => t.call('POST', path`/imports/${id}/commit`),
    /**
     * Polls the session until its job is done (status no longer `planning` or
     * `committing`) and answers it: `pending`, `committed` or `failed` (with
     * `failure`). A session without a job answers at once.
     */
    waitFor: async (id: string, options: ImportWaitOptions = {}): Promise<ImportSession> => {
      const interval = options.intervalMs ?? 500
      const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs
      for (;;) {
        const session = await t.call<ImportSession>('GET', path`/imports/${id}`)
        if (session.status !== 'planning' && session.status !== 'committing') return session
        if (session.progress) options.onProgress?.(session.progress)
        if (Date.now() + interval > deadline) throw new Error(`import ${id} is still ${session.status} after ${options.timeoutMs} ms`)
        options.signal?.throwIfAborted()
        await new Promise((resolve) => setTimeout(resolve, interval))
      }
    },
  }
}

/** How `imports.waitFor` polls. */
export interface ImportWaitOptions {
  /** Between two polls (default 500 ms). */
  intervalMs?: number
  /** Gives up (throws) after this long; by default it waits as long as the job runs. */
  timeoutMs?: number
  /** Called with the job's progress at each poll. */
  onProgress?: (progress: NonNullable<ImportSession['progress']>) => void
  signal?: AbortSignal
}

/** `client.exports`: the library as files. */
export function createExportsResource(t: Transport) {
  return {
    /** The components matching the list's filters (every one without), parsed (the JSON export). */
    components: (query: Omit<QueryOf<typeof ComponentExportQuery>, 'format'> = {}): Promise<Component[]> =>
      t.call('GET', '/exports/components', { query: { ...query, format: 'json' }, responseType: 'json' }),
    /** The same components as CSV text (one column per field and per parameter type); it imports back as is. */
    componentsCsv: (query: Omit<QueryOf<typeof ComponentExportQuery>, 'format'> = {}): Promise<string> =>
      t.call('GET', '/exports/components', { query: { ...query, format: 'csv' }, responseType: 'text' }),
    /** Exactly the components named (deleted ones too), in their order, parsed; unknown ids are left out. */
    componentsById: (ids: readonly string[]): Promise<Component[]> =>
      t.call('POST', '/exports/components', { body: { format: 'json', ids: [...ids] } satisfies ComponentExportRequest, responseType: 'json' }),
    /** The same as CSV text. */
    componentsByIdCsv: (ids: readonly string[]): Promise<string> =>
      t.call('POST', '/exports/components', { body: { format: 'csv', ids: [...ids] } satisfies ComponentExportRequest, responseType: 'text' }),
    /** A consistent copy of the whole library (for the embedded storage, a SQLite file). */
    backup: async (): Promise<Uint8Array> => new Uint8Array(await t.call<ArrayBuffer>('GET', '/exports/backup', { responseType: 'arrayBuffer' })),
  }
}

export type ImportsResource = ReturnType<typeof createImportsResource>
export type ExportsResource = ReturnType<typeof createExportsResource>
