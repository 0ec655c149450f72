import { ComplibError, ImportSession, SourcePullCreate, idSchema, type StoredSource } from '@complib/core'
import * as z from 'zod'
import { importJobs } from '../imports/jobs'
import { emptyPlan, sessionView, type ImportData } from '../imports/session'
import { defineRoute } from '../routing/define-route'
import { Reply } from '../routing/reply'
import { asProblem } from '../sources/library'
import { PULL_COLUMNS, peerPartRow, pullMapping } from '../sources/peer-rows'

const IdParams = z.object({ id: idSchema('source') })

/** How long a pull waits for the source's limiter per request: a job, not a person, waits. */
const PULL_WAIT_MS = 5 * 60_000

export const sourcePullRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/sources/{id}/pulls',
    group: 'sources',
    operationId: 'pullFromSource',
    permission: 'library:write',
    summary: "Pull a peer's whole library (InvenTree, Part-DB) into an import session, to preview and commit",
    description:
      "Reads every part of the peer the source points at (decision 1609): name, IPN, description, category path, keywords as tags, lifecycle, parameters with units, manufacturer parts as MPNs, supplier parts as offers, stock per location path, attachment links, KiCad fields where the peer keeps them. It answers 202 at once with an import session (`preset: pull`, `source`: this source's id), `planning` while the parts are read (`progress.phase: pulling`) and planned; poll it at `Location`. Once `pending`, its preview says what the commit creates, updates (field by field, `GET /api/imports/{id}/rows`) and leaves alone; `POST /api/imports/{id}/commit` applies all of it or nothing. Each part keeps the peer's key as its external reference, so pulling again later (a re-sync) updates the components made before and changes only what changed at the peer. A peer that refuses the credentials or fails ends the session `failed` with the reason; nothing is written.",
    params: IdParams,
    body: SourcePullCreate,
    errors: ['CONFLICT'],
    responses: { 202: { description: 'The import session, `planning` while the parts are pulled', schema: ImportSession, headers: { location: { description: 'URL of the session' } } } },
    handler: async ({ params, body, services }) => {
      const { storage, sources } = services
      const source = await storage.sources.get(params.id)
      const type = sources.typeOf(source.type)
      if (!type.capabilities.pull) {
        const can = sources.types.filter((t) => t.capabilities.pull).map((t) => t.type)
        throw new ComplibError('CONFLICT', `source ${source.id} is of type "${source.type}", which cannot pull a library; the types that can: ${can.join(', ') || 'none'}`)
      }
      const jobs = importJobs(storage)
      const data: ImportData & { progress: NonNullable<ImportData['progress']> } = {
        format: 'json',
        fileName: `${source.name} (${type.title ?? type.type})`,
        rows: [],
        stored: true,
        rowCount: 0,
        shape: { format: 'json', encoding: 'utf-8', delimiter: null },
        preset: 'pull',
        source: source.id,
        columns: [...PULL_COLUMNS],
        mapping: pullMapping(),
        upsertKey: body.upsertKey,
        plan: emptyPlan(),
        result: null,
        progress: { phase: 'pulling', done: 0, total: 0 },
        heartbeat: jobs.heartbeat(),
      }
      const record = await storage.imports.create({ kind: 'components', status: 'planning', data: data as unknown as Record<string, unknown> })
      jobs.pull(record.id, (onProgress, signal) => _rows(sources.pull(source, { signal, waitMs: PULL_WAIT_MS }, onProgress), source))
      return new Reply(202, sessionView(record), { location: `/api/imports/${record.id}` })
    },
  }),
]

/** The peer's parts as rows; a failure of the peer as the problem a request would get (what to do, naming the source). */
async function* _rows(parts: AsyncIterable<Parameters<typeof peerPartRow>[0]>, source: StoredSource): AsyncGenerator<Record<string, unknown>> {
  try {
    for await (const part of parts) yield peerPartRow(part)
  } catch (error) {
    throw asProblem(error, source)
  }
}
