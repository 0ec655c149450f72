import type { Component, ExportQuery, ImportCreateQuery, ImportPatch, ImportRowOutcome, ImportRowsQuery, ImportSession, Page } from '@complib/core'
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
    commit: (id: string): Promise<ImportSession> => t.call('POST', path`/imports/${id}/commit`),
  }
}

/** `client.exports`: the library as files. */
export function createExportsResource(t: Transport) {
  return {
    /** Every component, parsed (the JSON export). */
    components: (query: Omit<QueryOf<typeof ExportQuery>, 'format'> = {}): Promise<Component[]> =>
      t.call('GET', '/exports/components', { query: { ...query, format: 'json' }, responseType: 'json' }),
    /** Every component as CSV text (one column per field and per parameter type); it imports back as is. */
    componentsCsv: (query: Omit<QueryOf<typeof ExportQuery>, 'format'> = {}): Promise<string> =>
      t.call('GET', '/exports/components', { query: { ...query, format: 'csv' }, responseType: 'text' }),
    /** A consistent copy of the whole library (for the embedded storage, a SQLite file). */
    backup: async (): Promise<Uint8Array> => new Uint8Array(await t.call<ArrayBuffer>('GET', '/exports/backup', { responseType: 'arrayBuffer' })),
  }
}

export type ImportsResource = ReturnType<typeof createImportsResource>
export type ExportsResource = ReturnType<typeof createExportsResource>
