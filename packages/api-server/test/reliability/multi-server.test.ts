import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '@complib/test-support/receiver'
import { killHard } from '../cli-process'
import { okJson, sleep } from './json-api'
import { startServe, type ServeProcess } from './server-process'
import { createDatabase, dropDatabase } from '../postgres-database'

// Three `complib serve --database …` processes on one PostgreSQL
// database behave as one service. Each test file run gets a database of its own,
// dropped afterwards. Skipped without a PostgreSQL server; failed under CI=true.
const adminUrl = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const database = `complib_ms_${randomBytes(5).toString('hex')}`
const unreachable = await createDatabase(adminUrl, database)
if (unreachable !== null && process.env.CI === 'true') throw new Error(`PostgreSQL at ${adminUrl} is unreachable (${unreachable}); CI runs the multi-server suite`)
const url = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString()
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

describe.skipIf(unreachable !== null)(`three servers on one PostgreSQL database${unreachable ? ` (skipped: ${unreachable})` : ''}`, () => {
  let servers: ServeProcess[] = []
  const api = (s: ServeProcess, method: string, path: string, body?: unknown, status?: number) => okJson(s.url, method, path, body, status)

  beforeAll(async () => {
    // One after another: the first creates the schema, the others find it.
    for (let i = 0; i < 3; i++) servers.push(await startServe({ args: ['--database', url] }))
  }, 120_000)

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await dropDatabase(adminUrl, database)
  }, 60_000)

  it('reads back on every server what any server acknowledged', async () => {
    for (let i = 0; i < 12; i++) {
      const writer = servers[i % 3]!
      const created = await api(writer, 'POST', '/api/components', { name: `R ${i}k`, tags: ['multi'] }, 201)
      for (const reader of servers) expect((await api(reader, 'GET', `/api/components/${created.id}`)).name).toBe(`R ${i}k`)
      const patched = await api(servers[(i + 1) % 3]!, 'PATCH', `/api/components/${created.id}`, { description: `edited ${i}` })
      for (const reader of servers) expect((await api(reader, 'GET', `/api/components/${created.id}`)).version).toBe(patched.version)
    }
    const upload = await fetch(`${servers[0]!.url}/api/attachments?name=ds.txt`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'datasheet bytes' })
    const attachment = (await upload.json()) as { id: string }
    for (const reader of servers) expect(await (await fetch(`${reader.url}/api/attachments/${attachment.id}/content`)).text()).toBe('datasheet bytes')
  })

  it('starts exactly one run per cron tick across the servers over 20 seconds, never two at once', { timeout: 75_000 }, async () => {
    const receiver = await startReceiver()
    try {
      const connector = await api(servers[0]!, 'POST', '/api/connectors', { name: 'every second', secret: SECRET, config: { url: receiver.url, cron: '* * * * * *' } }, 201)
      // The other servers learn of the schedule from the database (their sweep, every 5 s):
      // from then on all three fire at each tick, and one of them starts the run.
      await sleep(6_000)
      const started = Date.now()
      await sleep(20_000)
      await api(servers[0]!, 'PATCH', `/api/connectors/${connector.id}`, { config: { cron: null } })
      // Every server drops the schedule at its next sweep; then the last run ends.
      await sleep(6_000)
      for (let i = 0; i < 50 && (await api(servers[2]!, 'GET', `/api/connectors/${connector.id}/runs?limit=5`)).some((r: { status: string }) => r.status === 'queued' || r.status === 'running'); i++) await sleep(200)
      const runs: Array<{ id: string; createdAt: string; startedAt: string | null; finishedAt: string | null; status: string }> = await api(servers[1]!, 'GET', `/api/connectors/${connector.id}/runs?limit=100`)
      const seconds = runs.map((r) => Math.round(Date.parse(r.createdAt) / 1000))
      // One run per tick: no second has two runs, and nearly every second of the window has one.
      expect(new Set(seconds).size).toBe(runs.length)
      expect(runs.length).toBeGreaterThanOrEqual(Math.floor((Date.now() - started) / 1000) - 8)
      // Never two at once: each run finished before the next one started.
      const ordered = [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      for (let i = 1; i < ordered.length; i++) expect(ordered[i - 1]!.finishedAt! <= ordered[i]!.startedAt!, `${ordered[i - 1]!.id} overlaps ${ordered[i]!.id}`).toBe(true)
      expect(runs.every((r) => r.status === 'succeeded')).toBe(true)
    } finally {
      await receiver.close()
    }
  })

  it('stops a run on the server that executes it when another server cancels it', { timeout: 60_000 }, async () => {
    // Eight batches of 250, each held 1.5 s by the receiver: the run outlasts a sweep.
    for (const start of [0, 1000]) await api(servers[1]!, 'POST', '/api/bulk/components', { items: Array.from({ length: 1000 }, (_, i) => ({ name: `cancel ${start + i}`, ipn: `MC-${start + i}` })) })
    const receiver = await startReceiver(() => ({ status: 202, delayMs: 1500 }))
    try {
      const connector = await api(servers[0]!, 'POST', '/api/connectors', { name: 'cancel elsewhere', secret: SECRET, config: { url: receiver.url, concurrency: 1, requestsPerSecond: 1000 } }, 201)
      const run = await api(servers[0]!, 'POST', `/api/connectors/${connector.id}/push`, undefined, 202)
      while (receiver.received.length === 0) await sleep(20)
      const cancelled = await api(servers[1]!, 'POST', `/api/connector-runs/${run.id}/cancel`)
      expect(cancelled.status).toBe('cancelled')
      // The executing server notices at its next sweep (every 5 s) and sends nothing more after that.
      await sleep(6_500)
      const sent = receiver.received.length
      await sleep(1_500)
      expect(receiver.received.length).toBe(sent)
      expect((await api(servers[2]!, 'GET', `/api/connector-runs/${run.id}`)).status).toBe('cancelled')
    } finally {
      await receiver.close()
    }
  })

  it('takes over the push of 10,000 components from a server killed mid-run within 30 s: every live id delivered, acknowledged batches not sent again, resent ones unchanged', { timeout: 150_000 }, async () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ name: `part ${i}`, ipn: `MS-${i}` }))
    for (let i = 0; i < items.length; i += 1000) await api(servers[1]!, 'POST', '/api/bulk/components', { items: items.slice(i, i + 1000) })
    const live = new Set<string>((await (await fetch(`${servers[2]!.url}/api/exports/components?format=json`)).json() as Array<{ id: string }>).map((c) => c.id))
    const receiver = await startReceiver(() => ({ status: 202, delayMs: 120 }))
    try {
      const connector = await api(servers[0]!, 'POST', '/api/connectors', { name: 'takeover', secret: SECRET, config: { url: receiver.url, concurrency: 2, requestsPerSecond: 1000 } }, 201)
      const victim = servers[0]!
      const run = await api(victim, 'POST', `/api/connectors/${connector.id}/push`, undefined, 202)
      // Kill the server once a few batches are acknowledged, in the middle of the run.
      for (;;) {
        const shown = await api(servers[1]!, 'GET', `/api/connector-runs/${run.id}`)
        if (shown.batches.filter((b: { status: string }) => b.status === 'succeeded').length >= 4) break
        await sleep(20)
      }
      await killHard(victim.child)
      const killedAt = Date.now()
      const acknowledgedAtKill = new Set<string>(
        (await api(servers[1]!, 'GET', `/api/connector-runs/${run.id}`)).batches.filter((b: { status: string }) => b.status === 'succeeded').map((b: { webhookId: string }) => b.webhookId),
      )
      // Another server takes it over (its sweep runs every 5 s) and finishes it.
      let final
      for (;;) {
        final = await api(servers[2]!, 'GET', `/api/connector-runs/${run.id}`)
        if (final.status !== 'running' && final.status !== 'queued') break
        expect(Date.now() - killedAt, 'the run was not finished by another server within 30 s').toBeLessThan(30_000)
        await sleep(100)
      }
      expect(final.status).toBe('succeeded')
      const byId = new Map<string, Buffer[]>()
      for (const r of receiver.received) {
        const id = String(r.headers['webhook-id'])
        byId.set(id, [...(byId.get(id) ?? []), r.raw])
      }
      const delivered = new Set<string>()
      for (const bodies of byId.values()) for (const e of (JSON.parse(bodies[0]!.toString()) as { entities: Array<{ id: string }> }).entities) delivered.add(e.id)
      expect([...live].filter((id) => !delivered.has(id))).toEqual([])
      for (const [id, bodies] of byId) {
        if (acknowledgedAtKill.has(id)) expect(bodies.length, `batch ${id} was acknowledged before the kill and sent again`).toBe(1)
        expect(bodies.every((b) => b.equals(bodies[0]!)), `batch ${id} was sent again with other bytes`).toBe(true)
      }
    } finally {
      await receiver.close()
      servers = servers.filter((s) => s.exitCode() === null)
    }
  })
})
