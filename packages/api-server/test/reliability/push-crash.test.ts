import { createHmac } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { killHard } from '../cli-process'
import { killServers, okJson, serveOn, settledRun, sleep } from './json-api'
import { FULL, type ServeProcess } from './server-process'

// kill -9 of a real server in the middle of a push of 10,000 components, at a
// different point each trial (the second of every three is killed a second time
// during the resumed run), then a restart, which resumes the run. Checked:
// every live id delivered; no batch the run had recorded as acknowledged before
// a kill is sent again; a batch sent again has the same webhook-id and bytes.
// "Recorded" means durably: read from the killed server's files, as its restart
// reads them. The API can show a batch acknowledged a moment before that record
// is on disk (a write is visible once committed in memory); a kill in that
// moment sends the batch again, with the same webhook-id (at least once).

const TRIALS = FULL ? 10 : 2
const COMPONENTS = 10_000
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const dirs: string[] = []
afterAll(async () => {
  await killServers()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const api = (server: ServeProcess, method: string, path: string, body?: unknown) => okJson(server.url, method, path, body)

/** Polls the run until at least `batches` are shown as acknowledged; returns their webhook-ids. */
async function acknowledged(server: ServeProcess, runId: string, batches: number): Promise<string[]> {
  for (;;) {
    const run = await api(server, 'GET', `/api/connector-runs/${runId}`)
    const ids = run.batches.filter((b: { status: string }) => b.status === 'succeeded').map((b: { webhookId: string }) => b.webhookId)
    if (ids.length >= batches) return ids
    if (run.status !== 'running' && run.status !== 'queued') throw new Error(`run ended (${run.status}) before ${batches} batches were acknowledged`)
    await sleep(10)
  }
}

/** The batches a killed server had durably recorded as acknowledged, read from a copy of its data folder. */
async function durablyAcknowledged(dataDir: string, runId: string): Promise<string[]> {
  const copy = mkdtempSync(join(tmpdir(), 'complib-push-crash-copy-'))
  try {
    cpSync(dataDir, copy, { recursive: true })
    const storage = await createSqliteStorage({ dir: copy })
    const run = await storage.runs.get(runId)
    await storage.close()
    return run.batches.filter((b) => b.status === 'succeeded').map((b) => b.webhookId)
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

describe('push crash', () => {
  it(`resumes after kill -9 in ${TRIALS} pushes of ${COMPONENTS.toLocaleString('en')} components: every live id delivered, no acknowledged batch sent again, resent batches keep id and bytes`, { timeout: 60_000 + TRIALS * 30_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'complib-push-crash-'))
    dirs.push(dataDir)
    let server = await serveOn(dataDir)
    const items = Array.from({ length: COMPONENTS }, (_, i) => ({ name: `part ${i}`, ipn: `X-${i}` }))
    const created: string[] = []
    for (let i = 0; i < items.length; i += 1000) created.push(...(await api(server, 'POST', '/api/bulk/components', { items: items.slice(i, i + 1000) })).items.map((c: { id: string }) => c.id))
    await api(server, 'POST', '/api/bulk/components/delete', { ids: created.filter((_, i) => i % 97 === 0) })
    const live = new Set(created.filter((_, i) => i % 97 !== 0))
    const totals = { batches: 0, acknowledgedAtKill: 0, shownNotYetDurable: 0, resent: 0, kills: 0 }

    for (let trial = 0; trial < TRIALS; trial++) {
      // Slow enough answers that a kill lands mid-run; 4 batches in flight, so some are cut off.
      const receiver = await startReceiver(() => ({ status: 202, delayMs: 20 + Math.floor(Math.random() * 40) }))
      try {
        const connector = await api(server, 'POST', '/api/connectors', { name: `hook ${trial}`, secret: SECRET, config: { url: receiver.url, concurrency: 4, requestsPerSecond: 1000 } })
        const run = await api(server, 'POST', `/api/connectors/${connector.id}/push`)
        expect(run.batchesTotal).toBe(Math.ceil(live.size / 250))
        const kills = trial % 3 === 1 ? 2 : 1
        // At each kill: when the server was gone, and the batches it had recorded as acknowledged.
        const cuts: Array<{ at: number; acked: Set<string>; shown: string[] }> = []
        for (let k = 0; k < kills; k++) {
          const target = Math.min(run.batchesTotal - 2, (cuts.at(-1)?.acked.size ?? 0) + 1 + Math.floor(Math.random() * (run.batchesTotal / (kills + 1))))
          const shown = await acknowledged(server, run.id, target)
          await killHard(server.child)
          cuts.push({ at: performance.now(), acked: new Set(await durablyAcknowledged(dataDir, run.id)), shown })
          totals.kills++
          server = await serveOn(dataDir)
          expect(server.output()).toContain(`resuming run ${run.id}`)
        }
        const final = await settledRun(server.url, run.id)
        expect(final).toMatchObject({ status: 'succeeded', batchesSucceeded: run.batchesTotal, batchesFailed: 0, entitiesSent: live.size })
        expect(final.resumedAt).not.toBeNull()

        const bodies = new Map<string, string[]>()
        for (const r of receiver.received) {
          const id = String(r.headers['webhook-id'])
          const mac = createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64')).update(`${id}.${r.headers['webhook-timestamp']}.`).update(r.raw).digest('base64')
          expect(r.headers['webhook-signature']).toBe(`v1,${mac}`)
          bodies.set(id, [...(bodies.get(id) ?? []), r.raw.toString()])
        }
        for (const cut of cuts) {
          for (const id of cut.acked) {
            const later = receiver.received.filter((r) => r.headers['webhook-id'] === id && r.at > cut.at)
            expect(later, `batch ${id}, acknowledged before a kill, sent again after it`).toEqual([])
          }
          totals.acknowledgedAtKill += cut.acked.size
          totals.shownNotYetDurable += cut.shown.filter((id) => !cut.acked.has(id)).length
        }
        for (const [id, sent] of bodies) expect(new Set(sent).size, `batch ${id} resent with other bytes`).toBe(1)
        const delivered = [...bodies.values()].flatMap((sent) => (JSON.parse(sent[0]!) as { entities: Array<{ id: string }> }).entities.map((e) => e.id))
        expect(delivered.length).toBe(live.size)
        expect(new Set(delivered)).toEqual(live)
        totals.batches += run.batchesTotal
        totals.resent += receiver.received.length - bodies.size
      } finally {
        await receiver.close()
      }
    }
    await server.stop({ keepData: true })
    console.log(
      `push crash: ${TRIALS} pushes of ${live.size} live components (${totals.batches} batches), ${totals.kills} kill -9; ` +
        `${totals.acknowledgedAtKill} batches durably recorded as acknowledged before a kill, none sent again; ${totals.resent} batches sent again with the same webhook-id and bytes ` +
        `(in flight at a kill, ${totals.shownNotYetDurable} of them shown acknowledged by the API but not yet on disk); every live id delivered in every push`,
    )
  })
})
