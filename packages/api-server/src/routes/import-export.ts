import {
  ComplibError, ExportQuery, ImportCreateQuery, ImportPatch, ImportRowOutcome, ImportRowsQuery, ImportSession, applyImport, detectPreset, emptyFieldSummary, idSchema,
  isComplibError, pageRowOutcomes, planImport, proposeMapping, toPlanView, type ImportPlan, type ImportRecord, type ImportRow, type ImportTarget, type PlanView,
  type StorageSession, type UpsertKey,
} from '@complib/core'
import * as z from 'zod'
import { exportComponents, toCsv, type ExportedComponent } from '../imports/export'
import { IMPORT_BODY_LIMIT, columnsOf, decodeUpload, readRows, type FileShape } from '../imports/read-rows'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion, readBodyBytes } from '../routing/request'

const Params = z.object({ id: idSchema('import') })

interface _Data {
  format: 'csv' | 'json'
  fileName: string | null
  rows: ImportRow[]
  /** Set once committed, when `rows` is emptied. */
  rowCount?: number
  /** How the file was read (sessions stored before encodings were detected have none: UTF-8, `,`). */
  shape?: FileShape
  preset?: string
  columns: string[]
  mapping: Record<string, ImportTarget>
  upsertKey: UpsertKey
  /** What committing would do, as shown (planned again at commit); a whole ImportPlan in sessions stored before a committed session dropped its rows (decision 0606). */
  plan: PlanView | ImportPlan
  result: { created: number; updated: number; unchanged?: number } | null
}

export const importExportRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/imports',
    group: 'import-export',
    operationId: 'createImport',
    permission: 'library:write',
    summary: 'Upload a CSV or JSON file of components to preview an import',
    description:
      'The body is the file (text/csv, or application/json with an array of objects): complib\'s own export, InvenTree\'s part, manufacturer-part and supplier-part exports, Part-DB\'s CSV or JSON export, or a plain spreadsheet. The encoding (UTF-8, UTF-16 with a BOM, else Windows-1252) and the CSV delimiter (`,` `;` or tab) are detected, and the recognised format (`preset`) proposes the whole mapping. Nothing changes until commit: the answer shows the mapping, what each row would do (create, or update by ipn, MPN or name), and every invalid cell.',
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
    responses: { 201: { description: 'The import session', schema: ImportSession, headers: { location: { description: 'URL of the session' } } } },
    handler: async ({ event, query, services }) => {
      const type = (event.req.headers.get('content-type') ?? '').toLowerCase()
      const format = query.format ?? (type.includes('json') ? 'json' : 'csv')
      const { text, shape } = decodeUpload(await readBodyBytes(event.req, IMPORT_BODY_LIMIT), format)
      const rows = readRows(text, format, shape.delimiter)
      const columns = columnsOf(rows)
      const preset = detectPreset(columns)
      const mapping = proposeMapping(columns, preset)
      const plan = await planImport(services.storage, rows, mapping, query.upsertKey)
      const data: _Data = { format, fileName: query.name ?? null, rows, shape, preset, columns, mapping, upsertKey: query.upsertKey, plan: toPlanView(plan, mapping), result: null }
      const record = await services.storage.imports.create({ kind: 'components', status: 'pending', data: data as unknown as Record<string, unknown> })
      return created(_view(record), `/api/imports/${record.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/imports/{id}',
    group: 'import-export',
    operationId: 'getImport',
    permission: 'library:read',
    summary: 'An import session: mapping, preview, errors',
    params: Params,
    responses: { 200: { description: 'The import session', schema: ImportSession } },
    handler: async ({ params, services }) => _view(await services.storage.imports.get(params.id)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/imports/{id}/rows',
    group: 'import-export',
    operationId: 'listImportRows',
    permission: 'library:read',
    summary: "Every row of an import and what committing does with it, page by page",
    description:
      'In file order: each row\'s number, its outcome (`create`, `update`, `unchanged`: an update whose every value equals the stored one, left alone by the commit, or `invalid`), the component it creates or updates, every error of the row (field, column, message) and, for an update, each field that changes with its value before and after. `outcome` narrows the list. As planned when the session was uploaded or last changed; after a commit, as committed (created components with their id).',
    params: Params,
    query: ImportRowsQuery,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'Rows of the file', schema: z.array(ImportRowOutcome), headers: PAGE_HEADERS } },
    handler: async ({ params, query, services, url }) => {
      const record = await services.storage.imports.get(params.id)
      const data = record.data as unknown as _Data
      let view = _planOf(data)
      if (!view.parts) {
        // A session stored before rows were kept planned its parts only for the answer: plan them now, while its file is still there.
        if (record.status !== 'pending') throw new ComplibError('CONFLICT', `import ${record.id} was committed before row outcomes were kept; its rows cannot be listed`)
        view = toPlanView(await planImport(services.storage, data.rows, data.mapping, data.upsertKey), data.mapping)
      }
      const page = pageRowOutcomes({ ...view, parts: view.parts! }, data.rowCount ?? data.rows.length, query)
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
    params: Params,
    body: ImportPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The import session', schema: ImportSession } },
    handler: async ({ params, body, services, event }) => {
      const record = await services.storage.imports.get(params.id)
      const data = record.data as unknown as _Data
      if (record.status !== 'pending') throw _alreadyCommitted(record.id)
      const unknown = Object.keys(body.mapping ?? {}).find((c) => !data.columns.includes(c))
      if (unknown !== undefined) {
        throw new ComplibError('VALIDATION_FAILED', `body.mapping: the file has no column "${unknown}"`, { errors: [{ path: `body.mapping.${unknown}`, message: 'no such column' }] })
      }
      const mapping: Record<string, ImportTarget> = Object.assign(Object.create(null), data.mapping, body.mapping)
      const upsertKey = body.upsertKey ?? data.upsertKey
      const plan = await planImport(services.storage, data.rows, mapping, upsertKey)
      const next: _Data = { ...data, mapping, upsertKey, plan: toPlanView(plan, mapping) }
      const ifVersion = ifMatchVersion(event.req)
      // A commit may have landed while the plan was made: it must not be overwritten.
      return _view(
        await services.storage.transaction(async (tx) => {
          await _pendingSession(tx, record.id)
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
    params: Params,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.imports.delete(params.id)
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
      'Refused with a 400 listing the invalid rows while any row is invalid, leaving the session pending. The plan is recomputed first, so changes made since the preview are taken into account. A part the file gives nothing new is left alone (`result.unchanged`): no new version, no history entry. A session commits once: a second commit, or one made while another runs, is a 409.',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'The committed session', schema: ImportSession } },
    handler: async ({ params, services }) =>
      // One transaction, which runs alone: it finds the session pending, applies every row, and
      // moves it to committed with a versioned write (a compare-and-set on any storage), so of two
      // commits exactly one wins and the other finds it committed (409). A failure undoes all of it.
      _view(
        await services.storage.transaction(async (tx) => {
          const record = await _pendingSession(tx, params.id)
          const data = record.data as unknown as _Data
          const plan = await planImport(tx, data.rows, data.mapping, data.upsertKey)
          if (plan.errors.length) {
            throw new ComplibError('VALIDATION_FAILED', `${plan.errors.length} rows are invalid; fix the file or the mapping (first: row ${plan.errors[0]!.row}, ${plan.errors[0]!.path}: ${plan.errors[0]!.message})`, {
              errors: plan.errors.map((e) => ({ path: `rows[${e.row}].${e.path}`, message: e.message })),
            })
          }
          const { components, ...result } = await applyImport(tx, plan.rows)
          // A committed session keeps its counts and row outcomes, not its file: it is never planned again.
          const next: _Data = { ...data, rows: [], rowCount: data.rows.length, plan: toPlanView(plan, data.mapping, components), result }
          return tx.imports.update(record.id, { status: 'committed', data: next as unknown as Record<string, unknown> }, { ifVersion: record.version }).catch((error: unknown) => {
            if (isComplibError(error) && error.code === 'PRECONDITION_FAILED') throw _alreadyCommitted(record.id)
            throw error
          })
        }),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/exports/components',
    group: 'import-export',
    operationId: 'exportComponents',
    permission: 'library:read',
    summary: 'Every component as a CSV or JSON file',
    description:
      'Everything a component carries, in a form `POST /api/imports` reads back unchanged: several MPNs, parameters with units, tags, category, status, symbols and footprints as `Library:Name`, stock per location path, attachments (links; an uploaded file\'s bytes are in the backup). JSON: the components with `stock` added and `library`, `url` on their links. CSV: one column per field, `manufacturer N`/`partNumber N` per MPN, one column per parameter type (and `<type> unit`).',
    query: ExportQuery,
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ query, services }) => {
      const all: ExportedComponent[] = []
      for await (const c of exportComponents(services.storage, query.includeDeleted)) all.push(c)
      const stamp = new Date().toISOString().slice(0, 10)
      if (query.format === 'json') {
        return new Response(JSON.stringify(all), { headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="components-${stamp}.json"` } })
      }
      return new Response(toCsv(all), { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="components-${stamp}.csv"` } })
    },
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

/** The session, or a 409 when it was committed already. */
async function _pendingSession(tx: StorageSession, id: string): Promise<ImportRecord> {
  const record = await tx.imports.get(id)
  if (record.status !== 'pending') throw _alreadyCommitted(id)
  return record
}

function _alreadyCommitted(id: string): ComplibError {
  return new ComplibError('CONFLICT', `import ${id} was already committed`)
}

function _view(record: ImportRecord): z.infer<typeof ImportSession> {
  const d = record.data as unknown as _Data
  const plan = _planOf(d)
  return {
    id: record.id,
    status: record.status as 'pending' | 'committed',
    format: d.format,
    fileName: d.fileName,
    rowCount: d.rowCount ?? d.rows.length,
    encoding: d.shape?.encoding ?? 'utf-8',
    delimiter: d.shape ? d.shape.delimiter : d.format === 'csv' ? ',' : null,
    preset: d.preset ?? 'spreadsheet',
    columns: d.columns,
    mapping: d.mapping,
    upsertKey: d.upsertKey,
    // Sessions stored before `unchanged` and the per-field summary counted every update as a change.
    summary: { ...plan.summary, unchanged: plan.summary.unchanged ?? 0 },
    fieldSummary: plan.fieldSummary ?? emptyFieldSummary(),
    preview: plan.preview,
    errors: plan.errors.map(({ row, path, message }) => ({ row, path, message })),
    result: d.result && { unchanged: 0, ...d.result },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    version: record.version,
  }
}

/** The session's plan view; sessions stored before plan views kept the whole plan. */
function _planOf(d: _Data): PlanView {
  return 'rows' in d.plan ? toPlanView({ ...d.plan, rows: d.plan.rows.map((r) => ({ ...r, rows: r.rows ?? [r.row], extras: r.extras ?? {} })) }, d.mapping) : d.plan
}
