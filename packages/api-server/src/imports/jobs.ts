import { randomUUID } from 'node:crypto'
import { ComplibError, applyImport, importLookups, isComplibError, planImport, undoImport, type ImportRecord, type ImportResult, type ImportUndo, type Storage } from '@complib/core'
import { withPullNote } from '../sources/history-note'
import { IMPORT_CHUNK_ROWS } from './read-rows'
import { dataOf, planOptionsOf, rowCountOf, rowsOf, saveOutcomes, splitPlan, type ImportData, type ImportHeartbeat, type StoredOutcome } from './session'

/** Parts applied in one transaction of a commit job: short enough that the writes of others wait little between two (decision 0616). */
export const COMMIT_CHUNK_PARTS = 100

/** What tests hook into: called after each applied chunk of a commit (a throw there stands for the process dying). */
export interface ImportJobHooks {
  afterChunk?: ((importId: string, chunk: number) => void | Promise<void>) | undefined
}

/**
 * Imports of more than one chunk run as jobs (decision 0616): planned and
 * committed here, in the background of the request that started them, a
 * chunk per transaction with a turn for other requests between. One set of
 * jobs per storage (importJobs), so the routes and the server's start share it.
 */
export interface ImportJobs {
  /** This server's name in the heartbeats of the sessions its jobs run. */
  readonly server: string
  /**
   * How long a heartbeat holds its session (60 s), and how often the sessions
   * of other servers are looked at (a quarter of it); tests shorten both.
   */
  settings: { leaseMs: number }
  /** A fresh heartbeat of this server, for the request that hands a session to a job to write. */
  heartbeat(): ImportHeartbeat
  /** Stores a large file's rows a chunk per write (status `planning`, phase `reading`), then plans it; a failure leaves the session `failed` with the reason. */
  store(id: string, rows: ReadonlyArray<{ rowNo: number; cells: Record<string, unknown> }>): void
  /**
   * Stores the rows a pull reads from a peer (decision 1609) a chunk per write
   * as they come (status `planning`, phase `pulling`, `onProgress` of the
   * source keeping the heartbeat and the count fresh), then plans them; a
   * failure of the peer leaves the session `failed` with the reason.
   */
  pull(id: string, rows: PullReader): void
  /** Plans a session whose rows are stored (status `planning`); it ends `pending` (or `failed`). */
  plan(id: string): void
  /** Commits a session moved to `committing`; it ends `committed`, or `failed` with nothing of it applied. */
  commit(id: string): void
  /**
   * At start, and then every quarter lease until stop: an orphaned session
   * left `committing` is undone and marked failed (commit it again); one left
   * `planning` is planned again, unless its rows were still being stored (then
   * it failed: upload again). Orphaned: its heartbeat is older than the lease,
   * or names this server though no job of it runs here; and at start, every
   * one where a single server holds the storage (no claimRun: SQLite's folder).
   */
  resumeInterrupted(): Promise<void>
  /** Resolves once every running job has finished. */
  idle(): Promise<void>
  /**
   * For a server that stops: each job stops at its next chunk, leaving its
   * session `planning` or `committing`, for the next start to finish
   * (resumeInterrupted), as after a crash.
   */
  stop(): Promise<void>
  hooks: ImportJobHooks
}

/** What a pull job reads its rows from: told how far the source is, and stopped with the server. */
export type PullReader = (onProgress: (done: number, total: number | null) => void, signal: AbortSignal) => AsyncIterable<Record<string, unknown>>

const JOBS = new WeakMap<Storage, ImportJobs>()

export function importJobs(storage: Storage): ImportJobs {
  let jobs = JOBS.get(storage)
  if (!jobs) JOBS.set(storage, (jobs = _create(storage)))
  return jobs
}

/** What a job shares with the others of its server. */
interface JobState {
  stopping: boolean
  /** Aborted when the server stops: a pull waiting on a peer stops waiting. */
  stopped: AbortController
  server: string
  settings: { leaseMs: number }
}

function _create(storage: Storage): ImportJobs {
  const running = new Set<Promise<void>>()
  /** Sessions a job of this server runs: never orphaned, whatever their heartbeat says. */
  const mine = new Map<string, number>()
  const state: JobState = { stopping: false, stopped: new AbortController(), server: `srv_${randomUUID()}`, settings: { leaseMs: 60_000 } }
  let timer: NodeJS.Timeout | undefined
  let checking: Promise<void> | undefined
  const start = (id: string, work: () => Promise<void>) => {
    mine.set(id, (mine.get(id) ?? 0) + 1)
    const job = work()
      .catch(() => {}) // every job records its own failure in its session
      .finally(() => {
        running.delete(job)
        const n = (mine.get(id) ?? 1) - 1
        if (n > 0) mine.set(id, n)
        else mine.delete(id)
      })
    running.add(job)
  }
  const takeOrphans = async (atStart: boolean) => {
    for (const id of await storage.importRows.sessionsIn(['planning', 'committing'])) {
      if (state.stopping) return
      if (mine.has(id)) continue
      const found = await storage.imports.get(id)
      if (!_orphaned(found, state, atStart && !storage.claimRun)) continue
      // The versioned write claims it: of two servers taking one session over, one does, the other skips it.
      let record: ImportRecord
      try {
        record = await storage.imports.update(id, { data: { ...found.data, heartbeat: _beat(state) } }, { ifVersion: found.version })
      } catch (error) {
        if (isComplibError(error) && (error.code === 'PRECONDITION_FAILED' || error.code === 'NOT_FOUND')) continue
        throw error
      }
      if (record.status === 'committing') start(id, () => _undoInterrupted(storage, record, state))
      else if (dataOf(record).progress?.phase === 'reading') {
        await _setData(storage, record, 'failed', { progress: null, heartbeat: null, unstored: true, failure: 'the server stopped while the file was being stored; upload it again' }, state)
      } else if (dataOf(record).progress?.phase === 'pulling') {
        await _setData(storage, record, 'failed', { progress: null, heartbeat: null, unstored: true, failure: 'the server stopped while the parts were being pulled; pull again' }, state)
      } else start(id, () => _plan(storage, id, state))
    }
  }
  const jobs: ImportJobs = {
    hooks: {},
    server: state.server,
    settings: state.settings,
    heartbeat: () => _beat(state),
    store: (id, rows) => start(id, () => _store(storage, id, rows, state)),
    pull: (id, rows) => start(id, () => _pull(storage, id, rows, state)),
    plan: (id) => start(id, () => _plan(storage, id, state)),
    commit: (id) => start(id, async () => {
      const d = dataOf(await storage.imports.get(id))
      await withPullNote(d, () => _commit(storage, id, jobs.hooks, state))
    }),
    async resumeInterrupted() {
      await takeOrphans(true)
      if (timer || state.stopping) return
      // A crashed server's session need not wait for a restart: the others look at it every quarter lease.
      const tick = () => {
        timer = setTimeout(() => {
          checking = takeOrphans(false)
            .catch(() => {}) // the next turn tries again
            .finally(() => {
              checking = undefined
              if (!state.stopping) tick()
            })
        }, Math.max(10, state.settings.leaseMs / 4))
        timer.unref()
      }
      tick()
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running])
    },
    async stop() {
      state.stopping = true
      state.stopped.abort()
      clearTimeout(timer)
      await checking
      await jobs.idle()
    },
  }
  return jobs
}

function _beat(state: JobState): ImportHeartbeat {
  return { server: state.server, at: Date.now() }
}

/** Whether no live job holds the session: see resumeInterrupted. */
function _orphaned(record: ImportRecord, state: JobState, everyOne: boolean): boolean {
  if (everyOne) return true
  const beat = dataOf(record).heartbeat
  if (beat?.server === state.server) return true
  const at = beat?.at ?? Date.parse(record.updatedAt)
  return Date.now() - at > state.settings.leaseMs
}

/** A job whose session another server took over (its heartbeat was older than the lease): it stops, leaving the session to that server. */
class TakenOver extends Error {}

/** Whether a job stops where it is rather than recording a failure: a crash stands in, or another server holds the session. */
function _stops(error: unknown): boolean {
  return error instanceof SimulatedCrash || error instanceof TakenOver
}

async function _store(storage: Storage, id: string, rows: ReadonlyArray<{ rowNo: number; cells: Record<string, unknown> }>, state: JobState): Promise<void> {
  let record = await storage.imports.get(id)
  const total = rows.length
  try {
    for (let at = 0; at < rows.length; at += IMPORT_CHUNK_ROWS) {
      if (state.stopping) throw new SimulatedCrash('the server stops')
      await storage.importRows.append(id, rows.slice(at, at + IMPORT_CHUNK_ROWS))
      record = await _setData(storage, record, 'planning', { progress: { phase: 'reading', done: Math.min(total, at + IMPORT_CHUNK_ROWS), total } }, state)
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    if (_stops(error)) throw error
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, heartbeat: null, unstored: true, failure: `storing the file failed: ${_reason(error)}; upload it again` }, state)
    return
  }
  await _plan(storage, id, state)
}

async function _pull(storage: Storage, id: string, read: PullReader, state: JobState): Promise<void> {
  let record = await storage.imports.get(id)
  let rowCount = 0
  let told = { done: 0, total: null as number | null }
  let lastBeat = Date.now()
  // Every write of the session goes through one chain: versioned writes of one job never race each other.
  let writes: Promise<void> = Promise.resolve()
  const write = (patch: Partial<ImportData>) => {
    writes = writes.then(async () => {
      record = await _setData(storage, record, 'planning', patch, state)
    })
    return writes
  }
  const progress = () => ({ rowCount, progress: { phase: 'pulling' as const, done: told.done, total: told.total ?? told.done } })
  let chunk: Array<{ rowNo: number; cells: Record<string, unknown> }> = []
  try {
    // The source reads the peer's lists before its first part: its progress keeps the heartbeat fresh meanwhile.
    const onProgress = (done: number, total: number | null) => {
      told = { done, total }
      if (Date.now() - lastBeat < state.settings.leaseMs / 8) return
      lastBeat = Date.now()
      write(progress()).catch(() => {}) // the next write reports a lost lease
    }
    for await (const cells of read(onProgress, state.stopped.signal)) {
      if (state.stopping) throw new SimulatedCrash('the server stops')
      chunk.push({ rowNo: rowCount + 2, cells })
      rowCount++
      if (chunk.length === IMPORT_CHUNK_ROWS) {
        const rows = chunk
        chunk = []
        await (writes = writes.then(() => storage.importRows.append(id, rows)))
        lastBeat = Date.now()
        await write(progress())
      }
    }
    if (chunk.length) await (writes = writes.then(() => storage.importRows.append(id, chunk)))
    await write(progress())
  } catch (error) {
    await writes.catch(() => {})
    if (_stops(error) || state.stopping) throw error instanceof SimulatedCrash ? error : new SimulatedCrash('the server stops')
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, heartbeat: null, unstored: true, failure: `pulling the parts failed: ${_reason(error).replace(/\.$/, '')}; pull again` }, state)
    return
  }
  await _plan(storage, id, state)
}

async function _plan(storage: Storage, id: string, state: JobState): Promise<void> {
  let record = await storage.imports.get(id)
  const d = dataOf(record)
  const total = rowCountOf(d)
  try {
    record = await _setData(storage, record, 'planning', { progress: { phase: 'planning', done: 0, total } }, state)
    const plan = await planImport(storage, rowsOf(storage, id, d), d.mapping, d.upsertKey, {
      ...planOptionsOf(d),
      onProgress: async (done) => {
        if (state.stopping) throw new SimulatedCrash('the server stops')
        if (done - (dataOf(record).progress?.done ?? 0) >= IMPORT_CHUNK_ROWS) record = await _setData(storage, record, 'planning', { progress: { phase: 'planning', done, total } }, state)
      },
    })
    const { view, outcomes } = splitPlan(plan, d.mapping, total)
    await _saveInChunks(storage, id, outcomes, state)
    await _setData(storage, record, 'pending', { plan: view, progress: null, heartbeat: null }, state)
  } catch (error) {
    if (_stops(error)) throw error
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, heartbeat: null, failure: `planning failed: ${_reason(error)}` }, state)
  }
}

async function _commit(storage: Storage, id: string, hooks: ImportJobHooks, state: JobState): Promise<void> {
  let record = await storage.imports.get(id)
  const d = dataOf(record)
  const total = rowCountOf(d)
  let plan
  try {
    plan = await planImport(storage, rowsOf(storage, id, d), d.mapping, d.upsertKey, {
      ...planOptionsOf(d),
      onProgress: async (done) => {
        if (state.stopping) throw new SimulatedCrash('the server stops')
        if (done - (dataOf(record).progress?.done ?? 0) >= IMPORT_CHUNK_ROWS) record = await _setData(storage, record, 'committing', { progress: { phase: 'planning', done, total } }, state)
      },
    })
  } catch (error) {
    if (_stops(error)) throw error
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, heartbeat: null, failure: `planning failed: ${_reason(error)}` }, state)
    return
  }
  if (plan.errors.length) {
    // Rows made invalid since the session was planned (the commit route refuses a plan that already had errors).
    const { view, outcomes } = splitPlan(plan, d.mapping, total)
    await _saveInChunks(storage, id, outcomes, state)
    const first = plan.errors[0]!
    await _setData(storage, await storage.imports.get(id), 'failed', { plan: view, progress: null, heartbeat: null, failure: `${new Set(plan.errors.map((e) => e.row)).size} rows are invalid; fix the file or the mapping (first: row ${first.row}, ${first.path}: ${first.message})` }, state)
    return
  }
  const parts = plan.rows
  const result: Omit<ImportResult, 'undo'> = { created: 0, updated: 0, unchanged: 0, components: new Map() }
  const byRow = new Map(splitPlan(plan, d.mapping, total).outcomes.map((o) => [o.row, o]))
  let applied = 0
  // What earlier chunks found or made (locations, symbols, footprints): a failed chunk ends the job, so none is stale.
  const lookups = importLookups()
  try {
    // A company export's refs go with the first chunk (or alone, when it renames no part).
    for (let at = 0, chunk = 0; at < parts.length || (chunk === 0 && plan.refs?.length); at += COMMIT_CHUNK_PARTS, chunk++) {
      const slice = parts.slice(at, at + COMMIT_CHUNK_PARTS)
      applied += slice.reduce((n, p) => n + p.rows.length, 0)
      record = await storage.transaction(async (tx) => {
        const done = await applyImport(tx, slice, lookups, chunk === 0 ? plan.refs : [])
        result.created += done.created
        result.updated += done.updated
        result.unchanged += done.unchanged
        const outcomes: StoredOutcome[] = []
        for (const p of slice) {
          const made = done.components.get(p.row)
          if (made) result.components.set(p.row, made)
          for (const row of p.rows) {
            const o = byRow.get(row)!
            outcomes.push({ ...o, ...(made ? { componentId: made.id, ipn: made.ipn } : {}), ...(row === p.row && done.undo.has(p.row) ? { undo: done.undo.get(p.row)! } : {}) })
          }
        }
        // Refs written for rows no part of the chunk starts (company rows): their undo is kept on their own row.
        const starts = new Set(slice.map((p) => p.row))
        for (const [row, undo] of done.undo) {
          if (starts.has(row)) continue
          const at = outcomes.findIndex((o) => o.row === row)
          if (at >= 0) outcomes[at] = { ...outcomes[at]!, undo }
          else if (byRow.has(row)) outcomes.push({ ...byRow.get(row)!, undo })
        }
        // The chunk and how to take it back land together: a restart finds either both or neither.
        await saveOutcomes(tx, id, outcomes)
        const current = await tx.imports.get(id)
        _assertHeld(current, state)
        return tx.imports.update(id, { data: { ...current.data, progress: { phase: 'committing', done: applied, total }, heartbeat: _beat(state) } }, { ifVersion: current.version })
      })
      await hooks.afterChunk?.(id, chunk)
      if (state.stopping) throw new SimulatedCrash('the server stops')
      // A turn between chunks: health checks, reads and other writers go before the next one.
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    if (_stops(error)) throw error
    await _undo(storage, id, total, state)
    await _saveInChunks(storage, id, [...byRow.values()], state)
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, heartbeat: null, failure: `the commit failed and nothing of it was kept: ${_reason(error)}` }, state)
    return
  }
  const { view } = splitPlan(plan, d.mapping, total, result.components)
  // Committed only now, after the last chunk: an answer saying so survives kill -9, and a restart before this undoes the chunks.
  await storage.transaction(async (tx) => {
    const current = await tx.imports.get(id)
    _assertHeld(current, state)
    const next: ImportData = { ...dataOf(current), plan: view, progress: null, heartbeat: null, failure: null, result: { created: result.created, updated: result.updated, unchanged: result.unchanged } }
    await tx.imports.update(id, { status: 'committed', data: next as unknown as Record<string, unknown> }, { ifVersion: current.version })
  })
}

/** Stands for the process dying, in tests: a job whose hook throws it stops where it is, as a killed server would. */
export class SimulatedCrash extends Error {}

async function _undoInterrupted(storage: Storage, record: ImportRecord, state: JobState): Promise<void> {
  const d = dataOf(record)
  const total = rowCountOf(d)
  await _undo(storage, record.id, total, state)
  // Outcomes as planned again (no component, no undo): the session is as before its commit.
  const outcomes: StoredOutcome[] = []
  let after = 0
  for (;;) {
    const page = await storage.importRows.listOutcomes(record.id, { after, limit: IMPORT_CHUNK_ROWS })
    for (const item of page.items) {
      const { undo, ...rest } = item.outcome as unknown as StoredOutcome
      outcomes.push(undo?.created ? { ...rest, componentId: null } : rest)
    }
    if (page.items.length < IMPORT_CHUNK_ROWS) break
    after = page.items.at(-1)!.rowNo
  }
  await _saveInChunks(storage, record.id, outcomes, state)
  await _setData(storage, await storage.imports.get(record.id), 'failed', {
    progress: null,
    heartbeat: null,
    failure: 'the server stopped during the commit; what it had applied was undone and the library is as before — commit again',
  }, state)
}

/** Takes back every applied chunk, latest first, a chunk per transaction. */
async function _undo(storage: Storage, id: string, total: number, state: JobState): Promise<void> {
  const entries: ImportUndo[] = []
  let after = 0
  for (;;) {
    const page = await storage.importRows.listOutcomes(id, { after, limit: IMPORT_CHUNK_ROWS })
    for (const item of page.items) {
      const undo = (item.outcome as unknown as StoredOutcome).undo
      if (undo) entries.push(undo)
    }
    if (page.items.length < IMPORT_CHUNK_ROWS) break
    after = page.items.at(-1)!.rowNo
  }
  let record = await storage.imports.get(id)
  record = await _setData(storage, record, 'committing', { progress: { phase: 'undoing', done: 0, total: entries.length } }, state)
  for (let end = entries.length, done = 0; end > 0; end -= COMMIT_CHUNK_PARTS) {
    const slice = entries.slice(Math.max(0, end - COMMIT_CHUNK_PARTS), end)
    await storage.transaction((tx) => undoImport(tx, slice))
    done += slice.length
    record = await _setData(storage, record, 'committing', { progress: { phase: 'undoing', done, total: entries.length } }, state)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function _saveInChunks(storage: Storage, id: string, outcomes: readonly StoredOutcome[], state: JobState): Promise<void> {
  let beat = Date.now()
  for (let at = 0; at < outcomes.length; at += IMPORT_CHUNK_ROWS) {
    await storage.transaction((tx) => saveOutcomes(tx, id, outcomes.slice(at, at + IMPORT_CHUNK_ROWS)))
    // The session stays held while its outcomes are written (100 writes at 100,000 rows).
    if (Date.now() - beat > state.settings.leaseMs / 4) {
      const current = await storage.imports.get(id)
      await _setData(storage, current, current.status, {}, state)
      beat = Date.now()
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** Writes the session's status and data with this server's heartbeat; a session another server took over stops the job (TakenOver). */
async function _setData(storage: Storage, record: ImportRecord, status: string, patch: Partial<ImportData>, state: JobState): Promise<ImportRecord> {
  const current = await storage.imports.get(record.id)
  _assertHeld(current, state)
  const heartbeat = patch.heartbeat === null ? null : _beat(state)
  return storage.imports.update(record.id, { status, data: { ...current.data, ...patch, heartbeat } as unknown as Record<string, unknown> }, { ifVersion: current.version })
}

function _assertHeld(record: ImportRecord, state: JobState): void {
  const beat = dataOf(record).heartbeat
  if (beat && beat.server !== state.server) throw new TakenOver(`import ${record.id} was taken over by ${beat.server}`)
}

function _reason(error: unknown): string {
  return error instanceof ComplibError ? error.detail : error instanceof Error ? error.message : String(error)
}
