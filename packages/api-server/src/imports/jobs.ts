import { ComplibError, applyImport, planImport, undoImport, type ImportRecord, type ImportResult, type ImportUndo, type Storage } from '@complib/core'
import { IMPORT_CHUNK_ROWS } from './read-rows'
import { dataOf, rowCountOf, rowsOf, saveOutcomes, splitPlan, type ImportData, type StoredOutcome } from './session'

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
  /** Plans a session whose rows are stored (status `planning`); it ends `pending` (or `failed`). */
  plan(id: string): void
  /** Commits a session moved to `committing`; it ends `committed`, or `failed` with nothing of it applied. */
  commit(id: string): void
  /**
   * At start: a session left `committing` by a stopped server is undone and
   * marked failed (commit it again); one left `planning` is planned again,
   * unless its rows were still being stored (then it failed: upload again).
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

const JOBS = new WeakMap<Storage, ImportJobs>()

export function importJobs(storage: Storage): ImportJobs {
  let jobs = JOBS.get(storage)
  if (!jobs) JOBS.set(storage, (jobs = _create(storage)))
  return jobs
}

function _create(storage: Storage): ImportJobs {
  const running = new Set<Promise<void>>()
  const state = { stopping: false }
  const start = (work: () => Promise<void>) => {
    const job = work()
      .catch(() => {}) // every job records its own failure in its session
      .finally(() => running.delete(job))
    running.add(job)
  }
  const jobs: ImportJobs = {
    hooks: {},
    plan: (id) => start(() => _plan(storage, id, state)),
    commit: (id) => start(() => _commit(storage, id, jobs.hooks, state)),
    async resumeInterrupted() {
      for (const id of await storage.importRows.sessionsIn(['planning', 'committing'])) {
        const record = await storage.imports.get(id)
        if (record.status === 'committing') start(() => _undoInterrupted(storage, record))
        else if (dataOf(record).progress?.phase === 'reading') {
          await _setData(storage, record, 'failed', { progress: null, failure: 'the server stopped while the file was being stored; upload it again' })
        } else start(() => _plan(storage, id, state))
      }
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running])
    },
    async stop() {
      state.stopping = true
      await jobs.idle()
    },
  }
  return jobs
}

async function _plan(storage: Storage, id: string, state: { stopping: boolean }): Promise<void> {
  let record = await storage.imports.get(id)
  const d = dataOf(record)
  const total = rowCountOf(d)
  try {
    record = await _setData(storage, record, 'planning', { progress: { phase: 'planning', done: 0, total } })
    const plan = await planImport(storage, rowsOf(storage, id, d), d.mapping, d.upsertKey, {
      onProgress: async (done) => {
        if (state.stopping) throw new SimulatedCrash('the server stops')
        if (done - (dataOf(record).progress?.done ?? 0) >= IMPORT_CHUNK_ROWS) record = await _setData(storage, record, 'planning', { progress: { phase: 'planning', done, total } })
      },
    })
    const { view, outcomes } = splitPlan(plan, d.mapping, total)
    await _saveInChunks(storage, id, outcomes)
    await _setData(storage, record, 'pending', { plan: view, progress: null })
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, failure: `planning failed: ${_reason(error)}` })
  }
}

async function _commit(storage: Storage, id: string, hooks: ImportJobHooks, state: { stopping: boolean }): Promise<void> {
  let record = await storage.imports.get(id)
  const d = dataOf(record)
  const total = rowCountOf(d)
  let plan
  try {
    plan = await planImport(storage, rowsOf(storage, id, d), d.mapping, d.upsertKey, {
      onProgress: async (done) => {
        if (state.stopping) throw new SimulatedCrash('the server stops')
        if (done - (dataOf(record).progress?.done ?? 0) >= IMPORT_CHUNK_ROWS) record = await _setData(storage, record, 'committing', { progress: { phase: 'planning', done, total } })
      },
    })
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, failure: `planning failed: ${_reason(error)}` })
    return
  }
  if (plan.errors.length) {
    const { view, outcomes } = splitPlan(plan, d.mapping, total)
    await _saveInChunks(storage, id, outcomes)
    const first = plan.errors[0]!
    await _setData(storage, await storage.imports.get(id), 'failed', { plan: view, progress: null, failure: `${new Set(plan.errors.map((e) => e.row)).size} rows are invalid; fix the file or the mapping (first: row ${first.row}, ${first.path}: ${first.message})` })
    return
  }
  const parts = plan.rows
  const result: Omit<ImportResult, 'undo'> = { created: 0, updated: 0, unchanged: 0, components: new Map() }
  const byRow = new Map(splitPlan(plan, d.mapping, total).outcomes.map((o) => [o.row, o]))
  let applied = 0
  try {
    for (let at = 0, chunk = 0; at < parts.length; at += COMMIT_CHUNK_PARTS, chunk++) {
      const slice = parts.slice(at, at + COMMIT_CHUNK_PARTS)
      applied += slice.reduce((n, p) => n + p.rows.length, 0)
      record = await storage.transaction(async (tx) => {
        const done = await applyImport(tx, slice)
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
        // The chunk and how to take it back land together: a restart finds either both or neither.
        await saveOutcomes(tx, id, outcomes)
        const current = await tx.imports.get(id)
        return tx.imports.update(id, { data: { ...current.data, progress: { phase: 'committing', done: applied, total } } }, { ifVersion: current.version })
      })
      await hooks.afterChunk?.(id, chunk)
      if (state.stopping) throw new SimulatedCrash('the server stops')
      // A turn between chunks: health checks, reads and other writers go before the next one.
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    if (error instanceof SimulatedCrash) throw error
    await _undo(storage, id, total)
    await _saveInChunks(storage, id, [...byRow.values()])
    await _setData(storage, await storage.imports.get(id), 'failed', { progress: null, failure: `the commit failed and nothing of it was kept: ${_reason(error)}` })
    return
  }
  const { view } = splitPlan(plan, d.mapping, total, result.components)
  // Committed only now, after the last chunk: an answer saying so survives kill -9, and a restart before this undoes the chunks.
  await storage.transaction(async (tx) => {
    const current = await tx.imports.get(id)
    const next: ImportData = { ...dataOf(current), plan: view, progress: null, failure: null, result: { created: result.created, updated: result.updated, unchanged: result.unchanged } }
    await tx.imports.update(id, { status: 'committed', data: next as unknown as Record<string, unknown> }, { ifVersion: current.version })
  })
}

/** Stands for the process dying, in tests: a job whose hook throws it stops where it is, as a killed server would. */
export class SimulatedCrash extends Error {}

async function _undoInterrupted(storage: Storage, record: ImportRecord): Promise<void> {
  const d = dataOf(record)
  const total = rowCountOf(d)
  await _undo(storage, record.id, total)
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
  await _saveInChunks(storage, record.id, outcomes)
  await _setData(storage, await storage.imports.get(record.id), 'failed', {
    progress: null,
    failure: 'the server stopped during the commit; what it had applied was undone and the library is as before — commit again',
  })
}

/** Takes back every applied chunk, latest first, a chunk per transaction. */
async function _undo(storage: Storage, id: string, total: number): Promise<void> {
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
  record = await _setData(storage, record, 'committing', { progress: { phase: 'undoing', done: 0, total: entries.length } })
  for (let end = entries.length, done = 0; end > 0; end -= COMMIT_CHUNK_PARTS) {
    const slice = entries.slice(Math.max(0, end - COMMIT_CHUNK_PARTS), end)
    await storage.transaction((tx) => undoImport(tx, slice))
    done += slice.length
    record = await _setData(storage, record, 'committing', { progress: { phase: 'undoing', done, total: entries.length } })
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function _saveInChunks(storage: Storage, id: string, outcomes: readonly StoredOutcome[]): Promise<void> {
  for (let at = 0; at < outcomes.length; at += IMPORT_CHUNK_ROWS) {
    await storage.transaction((tx) => saveOutcomes(tx, id, outcomes.slice(at, at + IMPORT_CHUNK_ROWS)))
    await new Promise((resolve) => setImmediate(resolve))
  }
}

async function _setData(storage: Storage, record: ImportRecord, status: string, patch: Partial<ImportData>): Promise<ImportRecord> {
  const current = await storage.imports.get(record.id)
  return storage.imports.update(record.id, { status, data: { ...current.data, ...patch } as unknown as Record<string, unknown> }, { ifVersion: current.version })
}

function _reason(error: unknown): string {
  return error instanceof ComplibError ? error.detail : error instanceof Error ? error.message : String(error)
}
