import { ComplibError } from '../../errors'
import { createId, deterministicId } from '../../ids'
import type { Actor } from '../../schemas/account'
import type { Run, RunBatch, RunDetail } from '../../schemas/run'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { RunStore } from '../types'
import { decodeCursor, encodeCursor, notFound, now, placeholders } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

const MAX_LOG_LINES = 1000
const MAX_LOG_LINE = 2000
const MAX_ATTEMPTS = 50

export const runs = {
  async create(ex, input) {
    if (!await ex.get('SELECT 1 FROM connectors WHERE id = ?', [input.connectorId])) throw notFound('connector', input.connectorId)
    if (input.exclusive) {
      const busy = await ex.get<{ id: string }>(`SELECT id FROM runs WHERE connector_id = ? AND status IN ('queued', 'running') LIMIT 1`, [input.connectorId])
      if (busy) throw new ComplibError('CONFLICT', `connector ${input.connectorId} is already running ${busy.id}`)
    }
    const id = input.scheduledFor ? deterministicId('run', Date.parse(input.scheduledFor), `${input.connectorId} ${input.scheduledFor}`) : createId('run')
    if (input.scheduledFor && await ex.get('SELECT 1 FROM runs WHERE id = ?', [id])) {
      throw new ComplibError('CONFLICT', `the run of connector ${input.connectorId} for ${input.scheduledFor} was started already`)
    }
    const startedBy = input.startedBy ? JSON.stringify({ kind: input.startedBy.kind, id: input.startedBy.id, name: input.startedBy.name }) : null
    const at = now()
    if ('live' in input.batches) {
      // Planned as the run goes (decision 0320): the live count and the highest id now; nothing to plan in an empty library.
      const { live, up_to: upTo } = (await ex.get<{ live: number | string; up_to: string | null }>('SELECT (SELECT live FROM component_totals WHERE id = 1) AS live, (SELECT max(id) FROM components) AS up_to'))!
      const { batchSize, first } = input.batches.live
      await ex.run(
        `INSERT INTO runs (id, connector_id, trigger, status, total, batches_total, created_at, started_by, plan_size, plan_up_to, planning) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)`,
        [id, input.connectorId, input.trigger, Number(live), Math.ceil(Number(live) / batchSize), at, startedBy, batchSize, upTo, upTo === null ? 0 : 1],
      )
      if (upTo !== null) await _plan(ex, id, first)
      return await _detail(ex, id)
    }
    const total = input.batches.reduce((n, b) => n + b.ids.length, 0)
    await ex.run(`INSERT INTO runs (id, connector_id, trigger, status, total, batches_total, created_at, started_by) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)`, [
      id,
      input.connectorId,
      input.trigger,
      total,
      input.batches.length,
      at,
      startedBy,
    ])
    for (const [idx, b] of input.batches.entries()) {
      await ex.run(`INSERT INTO run_batches (run_id, idx, webhook_id, ids, size, status) VALUES (?, ?, ?, ?, ?, 'pending')`, [id, idx, b.webhookId, JSON.stringify(b.ids), b.ids.length])
    }
    return await _detail(ex, id)
  },

  get: async (ex, id, options) => await _detail(ex, id, options?.batches),

  async listBatches(ex, runId, page) {
    const run = await _row(ex, runId)
    const where = ['run_id = ?']
    const params: SqlParam[] = [runId]
    if (page.status?.length) {
      where.push(`status IN (${placeholders(page.status.length)})`)
      params.push(...page.status)
    }
    if (page.indexes) {
      // Each by its key; a run's index is below 2^31, so they are inlined as integers.
      const wanted = page.indexes.filter((i) => Number.isSafeInteger(i) && i >= 0)
      where.push(wanted.length ? `idx IN (${wanted.join(', ')})` : '0 = 1')
    }
    const filtered = [...where]
    const filteredParams = [...params]
    if (page.cursor) {
      where.push('idx > ?')
      params.push(_batchCursor(page.cursor))
    }
    const rows = await ex.all<Omit<_BatchRow, 'ids' | 'body'>>(`SELECT ${_BATCH_COLUMNS} FROM run_batches WHERE ${where.join(' AND ')} ORDER BY idx LIMIT ?`, [...params, page.limit + 1])
    const more = rows.length > page.limit
    if (more) rows.pop()
    // Unfiltered, the run's own count. A first page that holds every match counted them; else a
    // run holds at most a few thousand batches, and counting those of a filter reads them once.
    const total = filtered.length === 1 ? run.batches_total : !page.cursor && !more ? rows.length : (await ex.get<{ n: number }>(`SELECT count(*) AS n FROM run_batches WHERE ${filtered.join(' AND ')}`, filteredParams))!.n
    return { items: rows.map(_batchView), total, nextCursor: more ? encodeCursor([rows.at(-1)!.idx]) : null }
  },

  async list(ex, connectorId, page) {
    const total = (await ex.get<{ n: number }>('SELECT count(*) AS n FROM runs WHERE connector_id = ?', [connectorId]))!.n
    const params: SqlParam[] = [connectorId]
    let before = ''
    if (page.cursor) {
      before = ' AND id < ?'
      params.push(decodeCursor(page.cursor, 1)[0] as string)
    }
    const rows = await ex.all<_Row>(`SELECT * FROM runs WHERE connector_id = ?${before} ORDER BY id DESC LIMIT ?`, [...params, page.limit + 1])
    const more = rows.length > page.limit
    if (more) rows.pop()
    return { items: rows.map(_view), total, nextCursor: more ? encodeCursor([rows.at(-1)!.id]) : null }
  },

  listActive: async (ex) => (await ex.all<_Row>(`SELECT * FROM runs WHERE status IN ('queued', 'running') ORDER BY id`)).map(_view),

  async update(ex, id, patch) {
    const current = await _row(ex, id)
    const sets: string[] = []
    const values: SqlParam[] = []
    for (const [key, column] of [
      ['status', 'status'],
      ['error', 'error'],
      ['startedAt', 'started_at'],
      ['finishedAt', 'finished_at'],
      ['resumedAt', 'resumed_at'],
      ['batchesSucceeded', 'batches_succeeded'],
      ['batchesFailed', 'batches_failed'],
      ['entitiesSent', 'entities_sent'],
      ['entitiesSkipped', 'entities_skipped'],
    ] as const) {
      if (patch[key] !== undefined) {
        sets.push(`${column} = ?`)
        values.push(patch[key])
      }
    }
    if (patch.appendLogs?.length) {
      const logs = [...(JSON.parse(current.logs) as string[]), ...patch.appendLogs.map((l) => l.slice(0, MAX_LOG_LINE))].slice(-MAX_LOG_LINES)
      sets.push('logs = ?')
      values.push(JSON.stringify(logs))
    }
    if (sets.length) await ex.run(`UPDATE runs SET ${sets.join(', ')} WHERE id = ?`, [...values, id])
    return _view(await _row(ex, id))
  },

  async updateBatch(ex, runId, index, patch) {
    const current = await _batchRow(ex, runId, index)
    const sets: string[] = []
    const values: SqlParam[] = []
    if (patch.status !== undefined) sets.push('status = ?') && values.push(patch.status)
    if (patch.lastStatus !== undefined) sets.push('last_status = ?') && values.push(patch.lastStatus)
    if (patch.error !== undefined) sets.push('error = ?') && values.push(patch.error)
    if (patch.body !== undefined) sets.push('body = ?') && values.push(patch.body)
    if (patch.mark !== undefined) sets.push('mark = ?') && values.push(patch.mark)
    if (patch.entitiesSent !== undefined) sets.push('sent = ?') && values.push(patch.entitiesSent)
    if (patch.entitiesSkipped !== undefined) sets.push('skipped = ?') && values.push(patch.entitiesSkipped)
    const added = [...(patch.appendAttempt ? [patch.appendAttempt] : []), ...(patch.appendAttempts ?? [])]
    if (added.length) {
      const attempts = [...(JSON.parse(current.attempts) as RunBatch['attempts']), ...added].slice(-MAX_ATTEMPTS)
      sets.push('attempts = ?')
      values.push(JSON.stringify(attempts))
    }
    if (sets.length) await ex.run(`UPDATE run_batches SET ${sets.join(', ')} WHERE run_id = ? AND idx = ?`, [...values, runId, index])
    return _batchView(await _batchRow(ex, runId, index))
  },

  planMore: async (ex, runId, count) => await _plan(ex, runId, count),

  async totals(ex, runId) {
    await _row(ex, runId)
    const row = (await ex.get<{ succeeded: number | string | null; failed: number | string | null; sent: number | string | null; skipped: number | string | null; first_error: string | null }>(
      `SELECT sum(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded, sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
         sum(CASE WHEN status = 'succeeded' THEN sent ELSE 0 END) AS sent, sum(skipped) AS skipped,
         (SELECT error FROM run_batches WHERE run_id = ?1 AND status = 'failed' ORDER BY idx LIMIT 1) AS first_error
       FROM run_batches WHERE run_id = ?1`,
      [runId],
    ))!
    // PostgreSQL sums integers as numeric, which its driver gives as text; no batch at all sums to NULL.
    return { batchesSucceeded: Number(row.succeeded ?? 0), batchesFailed: Number(row.failed ?? 0), entitiesSent: Number(row.sent ?? 0), entitiesSkipped: Number(row.skipped ?? 0), firstError: row.first_error }
  },

  async getBatchPayload(ex, runId, index) {
    await _row(ex, runId)
    const row = await ex.get<Pick<_BatchRow, 'ids' | 'body'> & { mark: number | null }>('SELECT ids, body, mark FROM run_batches WHERE run_id = ? AND idx = ?', [runId, index])
    if (!row) throw notFound(`batch of run ${runId}:`, String(index))
    return { ids: JSON.parse(row.ids) as string[], body: row.body, mark: row.mark }
  },
} satisfies StoreRepo<RunStore>

/** How each method uses the database (Access). */
export const runAccess = { get: 'snapshot', listBatches: 'snapshot', list: 'snapshot', listActive: 'read', getBatchPayload: 'snapshot', totals: 'snapshot', create: 'write', planMore: 'write', update: 'write', updateBatch: 'write' } as const satisfies StoreAccess<RunStore>

interface _Row {
  id: string
  connector_id: string
  trigger: Run['trigger']
  /** The Actor who started it, as JSON text. */
  started_by: string | null
  status: Run['status']
  total: number
  batches_total: number
  batches_succeeded: number
  batches_failed: number
  entities_sent: number
  entities_skipped: number
  error: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  resumed_at: string | null
  logs: string
  /** Batch size of a run planned as it goes; null for one whose batches were frozen at its creation. */
  plan_size: number | null
  /** The highest component id at the run's start: the plan stops there. */
  plan_up_to: string | null
  /** The last id planned so far (null: none yet). */
  plan_after: string | null
  /** 1 while batches remain to be planned. */
  planning: number
}
interface _BatchRow {
  run_id: string
  idx: number
  webhook_id: string
  ids: string
  size: number
  status: RunBatch['status']
  sent: number
  skipped: number
  attempts: string
  last_status: number | null
  error: string | null
  body: Uint8Array | null
}

const _BATCH_COLUMNS = 'run_id, idx, webhook_id, size, status, sent, skipped, attempts, last_status, error'

async function _row(ex: SqlExecutor, id: string): Promise<_Row> {
  const row = await ex.get<_Row>('SELECT * FROM runs WHERE id = ?', [id])
  if (!row) throw notFound('run', id)
  return row
}

/**
 * Plans up to `count` more batches of a run planned as it goes, and returns
 * them. A component deleted since the run started is still planned (its batch
 * counts it as skipped when it reads it), as it would have been frozen; one
 * created since is left out by the highest id, as its id sorts after it. One
 * deleted in the very millisecond the run was created is left out: whether
 * before or after cannot be told, and only the total notices.
 */
async function _plan(ex: SqlExecutor, runId: string, count: number): Promise<RunBatch[]> {
  const run = await _row(ex, runId)
  if (!run.planning || run.plan_size === null || run.plan_up_to === null) return []
  const size = run.plan_size
  const rows = await ex.all<{ id: string }>(
    `SELECT id FROM components WHERE id > ? AND id <= ? AND (deleted_at IS NULL OR deleted_at > ?) ORDER BY id LIMIT ?`,
    [run.plan_after ?? '', run.plan_up_to, run.created_at, count * size],
  )
  const next = (await ex.get<{ n: number | string | null }>('SELECT max(idx) AS n FROM run_batches WHERE run_id = ?', [runId]))!.n
  const first = next === null ? 0 : Number(next) + 1
  const out: RunBatch[] = []
  for (let i = 0; i < rows.length; i += size) {
    const ids = rows.slice(i, i + size).map((r) => r.id)
    const idx = first + i / size
    const webhookId = createId('message')
    await ex.run(`INSERT INTO run_batches (run_id, idx, webhook_id, ids, size, status) VALUES (?, ?, ?, ?, ?, 'pending')`, [runId, idx, webhookId, JSON.stringify(ids), ids.length])
    out.push(_batchView({ idx, webhook_id: webhookId, size: ids.length, status: 'pending', sent: 0, skipped: 0, attempts: '[]', last_status: null, error: null }))
  }
  if (rows.length < count * size) {
    // The plan is complete: the run's totals become what it planned.
    const planned = (await ex.get<{ n: number | string; b: number | string }>('SELECT coalesce(sum(size), 0) AS n, count(*) AS b FROM run_batches WHERE run_id = ?', [runId]))!
    await ex.run('UPDATE runs SET planning = 0, plan_after = ?, total = ?, batches_total = ? WHERE id = ?', [rows.at(-1)?.id ?? run.plan_after, Number(planned.n), Number(planned.b), runId])
  } else {
    await ex.run('UPDATE runs SET plan_after = ? WHERE id = ?', [rows.at(-1)!.id, runId])
  }
  return out
}

/** The batch's record without its ids and kept bytes (only getBatchPayload needs those). */
async function _batchRow(ex: SqlExecutor, runId: string, index: number): Promise<Omit<_BatchRow, 'ids' | 'body'>> {
  if (!await ex.get('SELECT 1 FROM runs WHERE id = ?', [runId])) throw notFound('run', runId)
  const row = await ex.get<Omit<_BatchRow, 'ids' | 'body'>>(`SELECT ${_BATCH_COLUMNS} FROM run_batches WHERE run_id = ? AND idx = ?`, [runId, index])
  if (!row) throw notFound(`batch of run ${runId}:`, String(index))
  return row
}

async function _detail(ex: SqlExecutor, id: string, limit?: number): Promise<RunDetail> {
  const run = _view(await _row(ex, id))
  if (limit === undefined) {
    const batches = await ex.all<Omit<_BatchRow, 'ids' | 'body'>>(`SELECT ${_BATCH_COLUMNS} FROM run_batches WHERE run_id = ? ORDER BY idx`, [id])
    return { ...run, batches: batches.map(_batchView) }
  }
  const batches = await ex.all<Omit<_BatchRow, 'ids' | 'body'>>(`SELECT ${_BATCH_COLUMNS} FROM run_batches WHERE run_id = ? ORDER BY idx LIMIT ?`, [id, limit + 1])
  const more = batches.length > limit
  if (more) batches.pop()
  // With no batch asked for (the run alone), the rest starts before the first index.
  return { ...run, batches: batches.map(_batchView), batchesNextCursor: more ? encodeCursor([batches.at(-1)?.idx ?? -1]) : null }
}

/** A batch index from a cursor of listBatches. */
function _batchCursor(cursor: string): number {
  const [idx] = decodeCursor(cursor, 1)
  if (typeof idx === 'number' && Number.isSafeInteger(idx)) return idx
  throw new ComplibError('VALIDATION_FAILED', 'query.cursor: not a cursor of batches', { errors: [{ path: 'query.cursor', message: 'not a cursor of batches' }] })
}

function _view(r: _Row): Run {
  return {
    id: r.id,
    connectorId: r.connector_id,
    trigger: r.trigger,
    startedBy: r.started_by === null ? null : (JSON.parse(r.started_by) as Actor),
    status: r.status,
    total: r.total,
    batchesTotal: r.batches_total,
    batchesSucceeded: r.batches_succeeded,
    batchesFailed: r.batches_failed,
    entitiesSent: r.entities_sent,
    entitiesSkipped: r.entities_skipped,
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    resumedAt: r.resumed_at,
    logs: JSON.parse(r.logs) as string[],
  }
}

function _batchView(r: Pick<_BatchRow, 'idx' | 'webhook_id' | 'size' | 'status' | 'sent' | 'skipped' | 'attempts' | 'last_status' | 'error'>): RunBatch {
  return {
    index: r.idx,
    webhookId: r.webhook_id,
    size: r.size,
    status: r.status,
    entitiesSent: r.sent,
    entitiesSkipped: r.skipped,
    attempts: JSON.parse(r.attempts) as RunBatch['attempts'],
    lastStatus: r.last_status,
    error: r.error,
  }
}
