import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killHard } from '../cli-process'
import { callJson } from './json-api'
import { applyPowerCut, type CutMode, readCutLog } from './power-cut'
import { buildPreloadShim } from './preload-shim'
import { FULL, startServe, type ServeProcess } from './server-process'
import { seededRandom } from './seeded-random'

// Power cuts of a real `complib serve` under 16 writers (decision 0208). The
// server runs with the recorder of fixtures/power-cut.c preloaded; at a random
// moment it is killed with -9, and everything its files were written since
// their last completed flush is taken back (all of it, or a random subset of
// sectors: a disk that reorders and tears), as a power cut would leave them.
// A server started on the folder must then hold every write it acknowledged.
// The control trials make every flush a lie (durability disabled) and must
// lose acknowledged writes, or the harness could not see a loss.

const TRIALS = FULL ? 50 : 4
const CONTROL_TRIALS = FULL ? 10 : 2
const WRITERS = 16

const root = mkdtempSync(join(tmpdir(), 'complib-power-cut-'))
const recorder = buildPreloadShim('power-cut', root)
const unavailable = 'unavailable' in recorder ? recorder.unavailable : null
const servers: ServeProcess[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => killHard(s.child)))
  rmSync(root, { recursive: true, force: true })
})

/** A component a writer created, with the description it last had acknowledged, and the one in flight. */
interface Known {
  id: string
  description: string | null
  pending: string | null
}

/** A writer: creates a component, then edits it a few times, then the next, until told to stop. */
async function writer(base: string, name: string, known: Known[], stop: { now: boolean }): Promise<void> {
  let n = 0
  while (!stop.now) {
    try {
      const current = known.at(-1)
      if (!current || n % 4 === 0) {
        const res = await callJson(base, 'POST', '/api/components', { name: `${name}-${n}`, ipn: `${name}-${n}`, tags: ['cut'], parameters: [{ type: 'Resistance', value: '10k' }] })
        if (res.status !== 201) throw new Error(`create answered ${res.status}`)
        known.push({ id: res.body.id, description: null, pending: null })
      } else {
        const description = `${name} edit ${n}`
        current.pending = description
        const res = await callJson(base, 'PATCH', `/api/components/${current.id}`, { description })
        if (res.status !== 200) throw new Error(`patch answered ${res.status}`)
        current.description = description
        current.pending = null
      }
      n++
    } catch (error) {
      if (stop.now) return
      throw error
    }
  }
}

interface Trial {
  acknowledged: number
  lost: string[]
  unflushed: number
}

/** One trial on `dataDir`: writers until a random moment, kill -9, the cut, then every acknowledged write checked. */
async function trial(dataDir: string, mode: CutMode, options: { lie: boolean; seed: number }): Promise<Trial> {
  const log = join(root, `cut-${options.seed}.log`)
  const lie = join(root, `lie-${options.seed}`)
  const shim = (recorder as { shim: string }).shim
  const server = await startServe({ dataDir, env: { LD_PRELOAD: shim, COMPLIB_CUT_DIR: dataDir, COMPLIB_CUT_LOG: log, COMPLIB_CUT_LIE: lie } })
  servers.push(server)
  if (options.lie) writeFileSync(lie, '')
  const random = seededRandom(options.seed)
  const stop = { now: false }
  const known: Known[][] = Array.from({ length: WRITERS }, () => [])
  const writing = known.map((k, i) => writer(server.url, `T${options.seed}W${i}`, k, stop))
  await new Promise((resolve) => setTimeout(resolve, 300 + random() * 1200))
  stop.now = true
  await killHard(server.child)
  await Promise.all(writing)
  rmSync(lie, { force: true })
  const cut = applyPowerCut(readCutLog(log), mode, random)
  rmSync(log, { force: true })

  const after = await startServe({ dataDir })
  servers.push(after)
  const lost: string[] = []
  let acknowledged = 0
  for (const component of known.flat()) {
    acknowledged += 1 + (component.description === null ? 0 : 1)
    const res = await callJson(after.url, 'GET', `/api/components/${component.id}`)
    if (res.status !== 200) lost.push(`${component.id}: ${res.status}`)
    else if (res.body.description !== component.description && res.body.description !== component.pending) {
      lost.push(`${component.id}: description ${JSON.stringify(res.body.description)}, acknowledged ${JSON.stringify(component.description)}`)
    }
  }
  expect(await after.stop({ keepData: true })).toBe(0)
  return { acknowledged, lost, unflushed: cut.unflushed }
}

describe.skipIf(unavailable)(`power cuts${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it(`lose none of the writes acknowledged by ${WRITERS} writers over ${TRIALS} cuts, torn or not`, { timeout: 60_000 + TRIALS * 20_000 }, async () => {
    const dataDir = realpathSync(mkdtempSync(join(root, 'data-')))
    const results: Trial[] = []
    for (let i = 0; i < TRIALS; i++) results.push(await trial(dataDir, i % 2 ? 'tear' : 'drop', { lie: false, seed: 1000 + i }))
    const acknowledged = results.reduce((n, r) => n + r.acknowledged, 0)
    const unflushed = results.reduce((n, r) => n + r.unflushed, 0)
    console.log(`[power-cut] ${TRIALS} cuts, ${WRITERS} writers: ${acknowledged} acknowledged writes, ${unflushed} unflushed file writes taken back, lost: ${results.reduce((n, r) => n + r.lost.length, 0)}`)
    expect(results.flatMap((r) => r.lost)).toEqual([])
    // The cuts took something back (kill -9 alone loses nothing), and writes were acknowledged.
    expect(unflushed).toBeGreaterThan(0)
    expect(acknowledged).toBeGreaterThan(TRIALS * WRITERS)
  })

  it(`see the loss when flushing is a lie (the control: ${CONTROL_TRIALS} cuts)`, { timeout: 60_000 + CONTROL_TRIALS * 20_000 }, async () => {
    const dataDir = realpathSync(mkdtempSync(join(root, 'control-')))
    const results: Trial[] = []
    for (let i = 0; i < CONTROL_TRIALS; i++) results.push(await trial(dataDir, 'drop', { lie: true, seed: 2000 + i }))
    console.log(`[power-cut] control, flushes lied: ${results.map((r) => `${r.lost.length} of ${r.acknowledged} lost`).join('; ')}`)
    for (const r of results) expect(r.lost.length).toBeGreaterThan(0)
  })
})
