import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_RUNS, readRunPosition } from './mirror'
import { openStore, type Store } from './store'

// Run ids are ULIDs: RUN_1 < RUN_2 < RUN_3, as complib makes them one after another.
const RUN_1 = 'run_01JD7W3T9X4QF5B8S2M6K0N1P1'
const RUN_2 = 'run_01JD7W3T9X4QF5B8S2M6K0N1P2'
const RUN_3 = 'run_01JD7W3T9X4QF5B8S2M6K0N1P3'

let dir: string
let file: string
let store: Store
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receiver-node-mirror-'))
  file = join(dir, 'components.json')
  store = await openStore(file)
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const parts = (...ids: string[]) => ids.map((id) => ({ id, name: id }))
const ids = () => Object.keys(store.read().components).sort()
const at = (runId: string, batch: number, batches: number) => ({ runId, batch, batches })

describe('readRunPosition', () => {
  it('reads complib-run-id and complib-batch, or null without them', () => {
    expect(readRunPosition({ 'complib-run-id': RUN_1, 'complib-batch': '3/5' })).toEqual(at(RUN_1, 3, 5))
    expect(readRunPosition({})).toBeNull()
  })

  it('refuses one without the other and malformed values with 400', () => {
    for (const headers of [
      { 'complib-run-id': RUN_1 },
      { 'complib-batch': '1/2' },
      { 'complib-run-id': 'run_1', 'complib-batch': '1/2' },
      { 'complib-run-id': RUN_1, 'complib-batch': '0/2' },
      { 'complib-run-id': RUN_1, 'complib-batch': '3/2' },
      { 'complib-run-id': RUN_1, 'complib-batch': '1/2 ' },
    ]) {
      expect(() => readRunPosition(headers), JSON.stringify(headers)).toThrow(expect.objectContaining({ status: 400 }))
    }
  })
})

describe('openStore in mirror mode', () => {
  it('removes what a complete run did not carry, once its last batch arrives (in any order)', async () => {
    await store.apply('msg_0', parts('cmp_a', 'cmp_b', 'cmp_c', 'cmp_d', 'cmp_old'))
    expect(await store.apply('msg_3', parts('cmp_d'), at(RUN_1, 3, 3))).toMatchObject({ upserted: 1, mirror: { complete: false, removed: 0 } })
    await store.apply('msg_1', parts('cmp_a'), at(RUN_1, 1, 3))
    expect(ids()).toEqual(['cmp_a', 'cmp_b', 'cmp_c', 'cmp_d', 'cmp_old'])
    expect(await store.apply('msg_2', parts('cmp_c'), at(RUN_1, 2, 3))).toMatchObject({ upserted: 1, mirror: { stale: false, complete: true, removed: 2 } })
    expect(ids()).toEqual(['cmp_a', 'cmp_c', 'cmp_d'])
    expect(store.read().mirror).toEqual({ runs: {}, lastCompletedRunId: RUN_1 })
    expect(JSON.parse(await readFile(file, 'utf8')).mirror.lastCompletedRunId).toBe(RUN_1)
  })

  it('prunes nothing while a batch of the run is missing; the next complete run prunes', async () => {
    await store.apply('msg_0', parts('cmp_a', 'cmp_gone'))
    await store.apply('msg_1', parts('cmp_a'), at(RUN_1, 1, 2))
    expect(ids()).toEqual(['cmp_a', 'cmp_gone'])
    await store.apply('msg_2', parts('cmp_a'), at(RUN_2, 1, 1))
    expect(ids()).toEqual(['cmp_a'])
  })

  it('does not apply a batch number twice, even under another webhook-id', async () => {
    await store.apply('msg_1', parts('cmp_a'), at(RUN_1, 1, 2))
    expect(await store.apply('msg_1', parts('cmp_a'), at(RUN_1, 1, 2))).toEqual({ duplicate: true, upserted: 0 })
    expect(await store.apply('msg_other', [{ id: 'cmp_a', name: 'changed' }], at(RUN_1, 1, 2))).toEqual({ duplicate: true, upserted: 0 })
    expect(store.read().components.cmp_a!.name).toBe('cmp_a')
  })

  it('ignores a late batch of a run older than the last completed one: no resurrection, no overwrite', async () => {
    await store.apply('msg_1a', parts('cmp_a'), at(RUN_1, 1, 2))
    await store.apply('msg_2a', [{ id: 'cmp_a', name: 'newer' }], at(RUN_2, 1, 1))
    const late = await store.apply('msg_1b', [{ id: 'cmp_a', name: 'older' }, { id: 'cmp_deleted', name: 'X' }], at(RUN_1, 2, 2))
    expect(late).toEqual({ duplicate: false, upserted: 0, mirror: { stale: true, complete: false, removed: 0 } })
    expect(store.read().components).toEqual({ cmp_a: { id: 'cmp_a', name: 'newer' } })
    expect(store.read().mirror).toEqual({ runs: {}, lastCompletedRunId: RUN_2 })
    // Recorded as seen: its resend is a duplicate.
    expect((await store.apply('msg_1b', [], at(RUN_1, 2, 2))).duplicate).toBe(true)
  })

  it('an older run completing keeps what a newer run under way already carried', async () => {
    await store.apply('msg_1a', parts('cmp_a'), at(RUN_1, 1, 2))
    // Created after run 1 read the library: only run 2 carries it.
    await store.apply('msg_2a', parts('cmp_new'), at(RUN_2, 1, 2))
    await store.apply('msg_1b', parts('cmp_b'), at(RUN_1, 2, 2))
    expect(ids()).toEqual(['cmp_a', 'cmp_b', 'cmp_new'])
    expect(Object.keys(store.read().mirror!.runs)).toEqual([RUN_2])
  })

  it('refuses a batch count that disagrees with the run’s earlier batches', async () => {
    await store.apply('msg_1', parts('cmp_a'), at(RUN_1, 1, 2))
    await expect(store.apply('msg_2', parts('cmp_b'), at(RUN_1, 2, 3))).rejects.toMatchObject({ status: 400 })
    expect(ids()).toEqual(['cmp_a'])
  })

  it(`keeps only the ${MAX_RUNS} newest incomplete runs`, async () => {
    const runIds = Array.from({ length: MAX_RUNS + 2 }, (_, i) => `run_01JD7W3T9X4QF5B8S2M6K0N1${String.fromCharCode(65 + i)}0`)
    for (const [i, runId] of runIds.entries()) await store.apply(`msg_${i}`, parts(`cmp_${i}`), at(runId, 1, 2))
    expect(Object.keys(store.read().mirror!.runs).sort()).toEqual(runIds.slice(-MAX_RUNS))
  })

  it('survives a restart mid-run', async () => {
    await store.apply('msg_0', parts('cmp_gone'))
    await store.apply('msg_1', parts('cmp_a'), at(RUN_3, 1, 2))
    const reopened = await openStore(file)
    expect((await reopened.apply('msg_2', parts('cmp_b'), at(RUN_3, 2, 2))).mirror).toEqual({ stale: false, complete: true, removed: 1 })
    expect(Object.keys(reopened.read().components).sort()).toEqual(['cmp_a', 'cmp_b'])
  })
})
