import type { Component, ExportQuery, ImportCreateQuery, ImportPatch, ImportSession } from '@complib/core'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions, QueryOf } from '../_internal/types'

/**
 * `client.imports`: upload a CSV or JSON file, check the preview and the
 * column mapping, then commit (every row or none).
 *
 * @example
 * const session = await client.imports.create(csvText, { format: 'csv' })
 * if (session.summary.invalid === 0) await client.imports.commit(session.id)
 */
export function createImportsResource(t: Transport) {
  return {
    create: (file: string | Blob | Uint8Array, query: QueryOf<typeof ImportCreateQuery> = {}): Promise<ImportSession> =>
      t.call('POST', '/imports', { query, rawBody: file as NonNullable<RequestInit['body']>, contentType: query.format === 'json' ? 'application/json' : 'text/csv' }),
    get: (id: string): Promise<ImportSession> => t.call('GET', path`/imports/${id}`),
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
