import {
  ComplibError, ComponentExportQuery, ExternalReference, ComponentExportRequest, ImportCreateQuery, ImportPatch, ImportRowOutcome, ImportRowsQuery, ImportSession, applyImport, decodeRowCursor, detectPreset, encodeRowCursor, idSchema,
  isComplibError, pageRowOutcomes, planImport, proposeMapping, toPlanView, type ImportRecord, type ImportTarget, type StorageSession,
} from '@complib/core'
import * as z from 'zod'
import { exportFile } from '../imports/export'
import { withPullNote } from '../sources/history-note'
import { importJobs } from '../imports/jobs'
import { IMPORT_BODY_LIMIT, IMPORT_CHUNK_ROWS, columnsOf, decodeUpload, readRows, spreadUnnamedRecords } from '../imports/read-rows'
import { dataOf, emptyPlan, isChangeable, notChangeable, planOf, planOptionsOf, rowCountOf, rowsOf, saveOutcomes, sessionView, splitPlan, type ImportData, type StoredOutcome } from '../imports/session'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { Reply, created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion, readBodyBytes } from '../routing/request'

const Params = z.object({ id: idSchema('import') })

const JOB_ANSWER = { description: 'A file of more than 1,000 rows: the session, `planning` or `committing` as a job; poll it at `Location` until `progress` is null', schema: ImportSession, headers: { location: { description: 'URL of the session' } } }

export const importExportRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/imports',
    group: 'import-export',
    operationId: 'createImport',
    permission: 'library:write',
    summary: 'Upload a CSV or JSON file of components to preview an import',
    description:
      'The body is the file (text/csv, or application/json with an array of objects; up to 100,000 rows and 64 MiB): complib\'s own export, InvenTree\'s part, manufacturer-part, supplier-part and company exports, Part-DB\'s CSV or JSON export, or a plain spreadsheet. A peer\'s keys are kept as external references (decision 0640): import InvenTree\'s part export first, then the files that name its parts by key, which add to those parts and create none (`source` says whose keys a file holds; `?source=` sets it for a file of no known format). The encoding (UTF-8, UTF-16 with a BOM, else Windows-1252) and the CSV delimiter (`,` `;` or tab) are detected, and the recognised format (`preset`) proposes the whole mapping; `warnings` say what in it looks wrong. Nothing changes until commit: the answer shows the mapping, what each row would do (create, or update by ipn, MPN or name), and every invalid cell. A file of up to 1,000 rows is planned within the request (201); a larger one is answered 202 with the session `planning`, to be polled at `Location` until it is `pending`.',
    query: ImportCreateQuery,
    rawBody: {
      description: 'The file: CSV (a header row, then one row per component; `,` `;` or tab), or a JSON array of objects',
      content: {
        'text/csv': { schema: z.string() },
        'application/json': { schema: z.array(z.record(z.string(), z.unknown())) },
      },
    },
    bodyLimit: IMPORT_BODY_LIMIT,
    errors: ['PAYLOAD_TOO_LARGE'],
    responses: { 201: { description: 'The import session', schema: ImportSession, headers: { location: { description: 'URL of the session' } } }, 202: JOB_ANSWER },
    handler: async ({ event, query, services }) => {
      const { storage } = services
      const type = (event.req.headers.get('content-type') ?? '').toLowerCase()
      const format = query.format ?? (type.includes('json') ? 'json' : 'csv')
      const { text, shape } = decodeUpload(await readBodyBytes(event.req, IMPORT_BODY_LIMIT), format)
      const read = await readRows(text, format, shape.delimiter)
      const preset = detectPreset(columnsOf(read))
      const rows = preset === 'partdb' && format === 'json' ? read.map(spreadUnnamedRecords) : read
      const columns = columnsOf(rows)
      const mapping = proposeMapping(columns, preset)
      const base: ImportData = { format, fileName: query.name ?? null, rows: [], stored: true, rowCount: rows.length, shape, preset, ...(query.source !== undefined ? { source: query.source } : {}), columns, mapping, upsertKey: query.upsertKey, plan: emptyPlan(), result: null }
      const numbered = rows.map((cells, i) => ({ rowNo: i + 2, cells: cells as Record<string, unknown> }))
      if (rows.length <= IMPORT_CHUNK_ROWS) {
        // One chunk: planned now, and kept with its rows and their outcomes in one write (decision 0606).
        const { view, outcomes } = splitPlan(await planImport(storage, rows, mapping, query.upsertKey, planOptionsOf(base)), mapping, rows.length)
        const record = await storage.transaction(async (tx) => {
          const made = await tx.imports.create({ kind: 'components', status: 'pending', data: { ...base, plan: view } as unknown as Record<string, unknown> })
          await tx.importRows.append(made.id, numbered)
          await saveOutcomes(tx, made.id, outcomes)
          return made
        })
        return created(sessionView(record), `/api/imports/${record.id}`)
      }
      // A job (decision 0616): the rows are stored a chunk per write, with a turn between, then planned, in the background.
      const jobs = importJobs(storage)
      const record = await storage.imports.create({ kind: 'components', status: 'planning', data: { ...base, progress: { phase: 'reading', done: 0, total: rows.length }, heartbeat: jobs.heartbeat() } as unknown as Record<string, unknown> })
      jobs.store(record.id, numbered)
      return new Reply(202, sessionView(record), { location: `/api/imports/${record.id}` })
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/imports/{id}',
    group: 'import-export',
    operationId: 'getImport',
    permission: 'library:read',
    summary: 'An import session: mapping, warnings, preview, errors, and a job\'s progress',
    params: Params,
    responses: { 200: { description: 'The import session', schema: ImportSession } },
    handler: async ({ params, services }) => sessionView(await services.storage.imports.get(params.id)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/imports/{id}/rows',
    group: 'import-export',
    operationId: 'listImportRows',
    permission: 'library:read',
    summary: "Every row of an import and what committing does with it, page by page",
    description:
      'In file order: each row\'s number, its outcome (`create`, `update`, `unchanged`: an update whose every value equals the stored one, left alone by the commit, or `invalid`), the component it creates or updates, every error of the row (field, column, message) and, for an update, each field that changes with its value before and after. `outcome` narrows the list. As planned when the session was uploaded or last changed; after a commit, as committed (created components with their id). While a large file is still being planned, its rows are not listed yet (409).',
    params: Params,
    query: ImportRowsQuery,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'Rows of the file', schema: z.array(ImportRowOutcome), headers: PAGE_HEADERS } },
    handler: async ({ params, query, services, url }) => {
      const { storage } = services
      const record = await storage.imports.get(params.id)
      const data = dataOf(record)
      if (data.stored) {
        if (record.status === 'planning') throw notChangeable(record)
        const after = decodeRowCursor(query.cursor)
        const { items, total } = await storage.importRows.listOutcomes(record.id, { after, limit: query.limit + 1, kind: query.outcome })
        const page = items.slice(0, query.limit).map((i) => {
          const { undo: _undo, ...outcome } = i.outcome as unknown as StoredOutcome
          return outcome
        })
        return withHeaders(page, pageHeaders(url, { total, nextCursor: items.length > query.limit ? encodeRowCursor(page.at(-1)!.row) : null }))
      }
      let view = planOf(data)
      if (!view.parts) {
        // A session stored before rows were kept planned its parts only for the answer: plan them now, while its file is still there.
        if (record.status !== 'pending') throw new ComplibError('CONFLICT', `import ${record.id} was committed before row outcomes were kept; its rows cannot be listed`)
        view = toPlanView(await planImport(storage, data.rows, data.mapping, data.upsertKey, planOptionsOf(data)), data.mapping)
      }
      const page = pageRowOutcomes({ ...view, parts: view.parts! }, rowCountOf(data), query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/imports/{id}',
    group: 'import-export',
    operationId: 'patchImport',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Change the column mapping or the upsert key; the preview is recomputed',
    description: 'A file of more than 1,000 rows is planned again as a job: the answer is 202 with the session `planning`.',
    params: Params,
    body: ImportPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The import session', schema: ImportSession }, 202: JOB_ANSWER },
    handler: async ({ params, body, services, event }) => {
      const { storage } = services
      const record = await storage.imports.get(params.id)
      const data = dataOf(record)
      if (!isChangeable(record)) throw notChangeable(record)
      const unknown = Object.keys(body.mapping ?? {}).find((c) => !data.columns.includes(c))
      if (unknown !== undefined) {
        throw new ComplibError('VALIDATION_FAILED', `body.mapping: the file has no column "${unknown}"`, { errors: [{ path: `body.mapping.${unknown}`, message: 'no such column' }] })
      }
      const mapping: Record<string, ImportTarget> = Object.assign(Object.create(null), data.mapping, body.mapping)
      const upsertKey = body.upsertKey ?? data.upsertKey
      const ifVersion = ifMatchVersion(event.req)
      const rowCount = rowCountOf(data)
      if (data.stored && rowCount > IMPORT_CHUNK_ROWS) {
        const next: ImportData = { ...data, mapping, upsertKey, failure: null, progress: { phase: 'planning', done: 0, total: rowCount }, heartbeat: importJobs(storage).heartbeat() }
        const planning = await storage.transaction(async (tx) => {
          await _changeableSession(tx, record.id)
          return tx.imports.update(record.id, { status: 'planning', data: next as unknown as Record<string, unknown> }, { ifVersion })
        })
        importJobs(storage).plan(record.id)
        return new Reply(202, sessionView(planning), { location: `/api/imports/${record.id}` })
      }
      const rows = []
      for await (const row of rowsOf(storage, record.id, data)) rows.push(row)
      const plan = await planImport(storage, rows, mapping, upsertKey, planOptionsOf(data))
      const { view, outcomes } = splitPlan(plan, mapping, rowCount)
      const next: ImportData = { ...data, mapping, upsertKey, plan: data.stored ? view : toPlanView(plan, mapping) }
      // A commit may have landed while the plan was made: it must not be overwritten.
      return sessionView(
        await storage.transaction(async (tx) => {
          await _changeableSession(tx, record.id)
          if (data.stored) await saveOutcomes(tx, record.id, outcomes)
          return tx.imports.update(record.id, { data: next as unknown as Record<string, unknown> }, { ifVersion })
        }),
      )
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/imports/{id}',
    group: 'import-export',
    operationId: 'deleteImport',
    permission: 'library:write',
    summary: 'Discard an import session',
    description: 'Its rows go with it. A session being planned or committed is a 409 until its job is done.',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.transaction(async (tx) => {
        const record = await tx.imports.get(params.id)
        if (record.status === 'planning' || record.status === 'committing') throw notChangeable(record)
        await tx.importRows.deleteAll(record.id)
        await tx.imports.delete(record.id)
      })
      return noContent()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/imports/{id}/commit',
    group: 'import-export',
    operationId: 'commitImport',
    permission: 'library:write',
    summary: 'Apply the import: every row or none',
    description:
      'Refused with a 400 listing the invalid rows while any row is invalid, leaving the session pending. The plan is recomputed first, so changes made since the preview are taken into account. A part the file gives nothing new is left alone (`result.unchanged`): no new version, no history entry. A session commits once: a second commit, or one made while another runs, is a 409. A file of more than 1,000 rows is committed as a job (202, status `committing`, polled at `Location`): chunk by chunk, with other requests answered between; should any chunk fail, what the earlier ones applied is undone and the session ends `failed` with the reason (it can be committed again). It is `committed` only once every row is applied.',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'The committed session', schema: ImportSession }, 202: JOB_ANSWER },
    handler: async ({ params, services }) => {
      const { storage } = services
      const first = await storage.imports.get(params.id)
      const firstData = dataOf(first)
      if (firstData.stored && rowCountOf(firstData) > IMPORT_CHUNK_ROWS) {
        // pending (or failed) → committing is a versioned write: of two commits exactly one wins, the other is a 409.
        const committing = await storage.transaction(async (tx) => {
          const record = await _changeableSession(tx, params.id)
          // A plan with invalid rows is refused as a small file's is, before any job: the session stays as it is.
          const { errors } = planOf(dataOf(record))
          if (errors.length) throw _invalidRows(errors)
          const next: ImportData = { ...dataOf(record), failure: null, progress: { phase: 'planning', done: 0, total: rowCountOf(dataOf(record)) }, heartbeat: importJobs(storage).heartbeat() }
          return tx.imports.update(record.id, { status: 'committing', data: next as unknown as Record<string, unknown> }, { ifVersion: record.version }).catch(_lostRace(record))
        })
        importJobs(storage).commit(committing.id)
        return new Reply(202, sessionView(committing), { location: `/api/imports/${committing.id}` })
      }
      // One transaction, which runs alone: it finds the session pending, applies every row, and
      // moves it to committed with a versioned write (a compare-and-set on any storage), so of two
      // commits exactly one wins and the other finds it committed (409). A failure undoes all of it.
      return sessionView(
        await withPullNote(firstData, () => storage.transaction(async (tx) => {
          const record = await _changeableSession(tx, params.id)
          const data = dataOf(record)
          const rows = []
          for await (const row of rowsOf(tx, record.id, data)) rows.push(row)
          const plan = await planImport(tx, rows, data.mapping, data.upsertKey, planOptionsOf(data))
          if (plan.errors.length) throw _invalidRows(plan.errors)
          const { components, undo: _undo, ...result } = await applyImport(tx, plan.rows, undefined, plan.refs)
          // A committed session keeps its counts and row outcomes, not its file: it is never planned again.
          const rowCount = rowCountOf(data)
          const { view, outcomes } = splitPlan(plan, data.mapping, rowCount, components)
          if (data.stored) await saveOutcomes(tx, record.id, outcomes)
          const next: ImportData = { ...data, rows: [], rowCount, plan: data.stored ? view : toPlanView(plan, data.mapping, components), result, failure: null }
          return tx.imports.update(record.id, { status: 'committed', data: next as unknown as Record<string, unknown> }, { ifVersion: record.version }).catch(_lostRace(record))
        })),
      )
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/references',
    group: 'import-export',
    operationId: 'listComponentReferences',
    permission: 'library:read',
    summary: "A component's keys in the peers' databases its imports came from",
    description:
      "Each key an import kept for the component (decision 0640): InvenTree's part `ID`, Part-DB's `id`, or the key column of an import given `?source=`. A later file that names a part only by that key (InvenTree's manufacturer-part and supplier-part exports) finds the component by it. By source, then key; a component in the trash keeps its keys.",
    params: z.object({ id: idSchema('component') }),
    responses: { 200: { description: 'Its external references', schema: z.array(ExternalReference) } },
    handler: async ({ params, services }) => {
      const { storage } = services
      // An unknown id is a 404, not an empty list.
      await storage.components.get(params.id, { includeDeleted: true })
      return (await storage.externalRefs.listForTarget('part', params.id)).map(({ source, key }) => ({ source, key }))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/exports/components',
    group: 'import-export',
    operationId: 'exportComponents',
    permission: 'library:read',
    summary: 'The components matching the list\'s filters (every one without) as a CSV or JSON file',
    description:
      'Everything a component carries, in a form `POST /api/imports` reads back unchanged: several MPNs, parameters with units, tags, category, status, symbols and footprints as `Library:Name`, stock per location path, attachments (links; an uploaded file\'s bytes are in the backup). JSON: the components with `stock` added and `library`, `url` on their links. CSV: one column per field, `manufacturer N`/`partNumber N` per MPN, one column per parameter type (and `<type> unit`). ' +
      'The filters are those of `GET /api/components` (`q`, `status`, `tag`, `category`, `manufacturer`, `locationId`, `parameter`, `deleted`, …): the file holds exactly the rows the list gives, by id (decision 0620).',
    query: ComponentExportQuery,
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ query, services }) => await exportFile(services.storage, { filters: query }, query.format),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/exports/components',
    group: 'import-export',
    operationId: 'exportComponentsById',
    permission: 'library:read',
    // Reads only, as the GET does.
    audit: false,
    summary: 'The components named as a CSV or JSON file',
    description: 'The same file as `GET /api/exports/components`, of exactly the components in `ids` (deleted ones too), in their order; unknown ids are left out (decision 0620).',
    body: ComponentExportRequest,
    // 100,000 ids of 30 characters, quoted, with commas.
    bodyLimit: 4 * 1024 * 1024,
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ body, services }) => await exportFile(services.storage, { ids: body.ids }, body.format),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/exports/backup',
    group: 'import-export',
    operationId: 'exportBackup',
    permission: 'backup:read',
    // A copy of the whole library leaving the server: an entry of the audit trail.
    audit: true,
    summary: 'A consistent copy of the whole library (for the embedded storage, a SQLite file)',
    description: 'A library on PostgreSQL answers 501: back it up with the database\'s own tools (pg_dump); `GET /api/exports/components` exports its content on either engine.',
    responses: { 200: { description: 'The backup file', contentType: 'application/octet-stream' } },
    errors: ['NOT_IMPLEMENTED'],
    handler: async ({ services }) => {
      const backup = await services.storage.backup()
      return new Response(backup.body, {
        headers: { 'content-type': backup.contentType, 'content-length': String(backup.size), 'content-disposition': `attachment; filename="${backup.fileName}"` },
      })
    },
  }),
]

/** The session, or a 409 when it cannot be changed or committed (committed, or a job runs). */
async function _changeableSession(tx: StorageSession, id: string): Promise<ImportRecord> {
  const record = await tx.imports.get(id)
  if (!isChangeable(record)) throw notChangeable(record)
  return record
}

/** The 400 of a commit while rows are invalid, listing them. */
function _invalidRows(errors: ReadonlyArray<{ row: number; path: string; message: string }>): ComplibError {
  const first = errors[0]!
  return new ComplibError('VALIDATION_FAILED', `${errors.length} rows are invalid; fix the file or the mapping (first: row ${first.row}, ${first.path}: ${first.message})`, {
    errors: errors.map((e) => ({ path: `rows[${e.row}].${e.path}`, message: e.message })),
  })
}

/** A versioned write that lost to another commit: a 409. */
function _lostRace(record: ImportRecord): (error: unknown) => never {
  return (error) => {
    if (isComplibError(error) && error.code === 'PRECONDITION_FAILED') throw new ComplibError('CONFLICT', `import ${record.id} was already committed`)
    throw error
  }
}
