import type { IncomingHttpHeaders } from 'node:http'
import { DeliveryError, type Entity } from './verify'

/** Where a delivery sits in a push: `complib-run-id` and `complib-batch: <batch>/<batches>` (1-based). */
export interface RunPosition {
  runId: string
  batch: number
  batches: number
}

/** What mirror mode remembers of a run that has not completed yet. */
export interface RunRecord {
  /** `n` of `complib-batch: i/n`. */
  batches: number
  /** The component ids each applied batch number carried. */
  applied: Record<string, string[]>
}

/** The mirror part of the JSON file, beside the components. */
export interface MirrorState {
  /** Runs newer than the last completed one, with batches applied (at most `MAX_RUNS`). */
  runs: Record<string, RunRecord>
  /** The newest run whose every batch was applied; older runs' batches are ignored. */
  lastCompletedRunId: string | null
}

/** Incomplete runs kept: a run that lost a batch never completes, and the next one supersedes it. */
export const MAX_RUNS = 4

/** What a mirrored batch did, besides the upsert. */
export interface MirrorOutcome {
  /** The batch belongs to a run older than the last completed one: nothing was changed. */
  stale: boolean
  /** This batch was the run's last missing one: components the run did not carry were removed. */
  complete: boolean
  removed: number
}

const RUN_ID = /^run_[0-9A-HJKMNP-TV-Z]{26}$/
const BATCH = /^([1-9][0-9]{0,8})\/([1-9][0-9]{0,8})$/

/**
 * Reads `complib-run-id` and `complib-batch` from a delivery. These headers
 * are not covered by the signature: call this only after the signature
 * verified. No run headers: `null` (the delivery is a plain upsert). One
 * without the other, or a malformed value: a 400.
 *
 * @example
 * readRunPosition({ 'complib-run-id': 'run_01JD7W3T9X4QF5B8S2M6K0N1PZ', 'complib-batch': '3/5' })
 * // { runId: 'run_01JD7W3T9X4QF5B8S2M6K0N1PZ', batch: 3, batches: 5 }
 */
export function readRunPosition(headers: IncomingHttpHeaders | Record<string, string | undefined>): RunPosition | null {
  const runId = _header(headers, 'complib-run-id')
  const batch = _header(headers, 'complib-batch')
  if (runId === undefined && batch === undefined) return null
  if (runId === undefined || batch === undefined) throw new DeliveryError(400, 'complib-run-id and complib-batch come together')
  if (!RUN_ID.test(runId)) throw new DeliveryError(400, `complib-run-id is not a run id: ${runId.slice(0, 40)}`)
  const match = BATCH.exec(batch)
  if (!match || Number(match[1]) > Number(match[2])) throw new DeliveryError(400, `complib-batch is not <i>/<n> with 1 ≤ i ≤ n: ${batch.slice(0, 40)}`)
  return { runId, batch: Number(match[1]), batches: Number(match[2]) }
}

/**
 * Applies one batch of a run to the components, mirror-style. Pure: returns
 * the new components and mirror state, changes neither argument.
 *
 * - A run older than the last completed one (by run id: ULIDs sort by
 *   creation time) is stale: nothing changes, so a late batch of an old run
 *   neither brings back what a newer run removed nor overwrites newer data.
 * - Otherwise the entities are upserted and the batch number recorded with
 *   its ids. A batch number already recorded for the run is not applied again.
 * - When every batch 1..n of the run is recorded, every component that
 *   neither this run nor a newer one (already under way) carried is removed,
 *   and the run becomes the last completed one.
 */
export function applyMirrored(
  components: Record<string, Entity>,
  state: MirrorState,
  position: RunPosition,
  entities: Entity[],
): { components: Record<string, Entity>; state: MirrorState; outcome: MirrorOutcome } | { duplicate: true } {
  const { runId, batch, batches } = position
  const unchanged = { components, state, outcome: { stale: true, complete: false, removed: 0 } }
  if (state.lastCompletedRunId !== null && runId <= state.lastCompletedRunId) return unchanged
  const record = state.runs[runId] ?? { batches, applied: {} }
  if (record.batches !== batches) throw new DeliveryError(400, `complib-batch says ${batches} batches; earlier batches of ${runId} said ${record.batches}`)
  if (record.applied[batch]) return { duplicate: true }

  const next = { ...components }
  for (const entity of entities) next[entity.id] = entity
  const runs: Record<string, RunRecord> = { ...state.runs, [runId]: { batches, applied: { ...record.applied, [batch]: entities.map((e) => e.id) } } }
  const current = runs[runId]!
  if (Object.keys(current.applied).length < batches) {
    // Keep the newest runs only: the file stays bounded when runs keep losing batches.
    const kept = Object.keys(runs).sort().slice(-MAX_RUNS)
    return { components: next, state: { ...state, runs: Object.fromEntries(kept.map((id) => [id, runs[id]!])) }, outcome: { stale: false, complete: false, removed: 0 } }
  }

  // Complete. A newer run already under way read the library later: what it carried stays.
  const newer = Object.keys(runs).filter((id) => id > runId)
  const keep = new Set<string>()
  for (const id of [runId, ...newer]) for (const ids of Object.values(runs[id]!.applied)) for (const componentId of ids) keep.add(componentId)
  let removed = 0
  for (const id of Object.keys(next)) {
    if (!keep.has(id)) {
      delete next[id]
      removed++
    }
  }
  const state2 = { runs: Object.fromEntries(newer.map((id) => [id, runs[id]!])), lastCompletedRunId: runId }
  return { components: next, state: state2, outcome: { stale: false, complete: true, removed } }
}

function _header(headers: IncomingHttpHeaders | Record<string, string | undefined>, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}
