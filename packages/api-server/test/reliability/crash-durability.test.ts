import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killHard } from '../cli-process'
import { killServers, okJson, serveOn, UnexpectedStatus } from './json-api'
import { FULL, type ServeProcess } from './server-process'

// kill -9 of a real `complib serve` while several clients write over HTTP
// (create, patch, delete, bulk patch, bulk create). Each client works on its
// own components, one request at a time, and records what the server
// acknowledged. After every restart: each acknowledged write is there, at the
// version the server answered; the one request each client had in flight is
// applied whole or not at all; every component is whole (all its children).

const TRIALS = FULL ? 20 : 3
const CLIENTS = 6
const dirs: string[] = []
afterAll(async () => {
  await killServers()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

interface Known {
  ipn: string
  description: string | null
  deleted: boolean
  version: number
}
type Change = { id: string; description?: string; deleted?: boolean }
/** A request sent and not yet answered: what it would change, all of it or none. */
type InFlight = { kind: 'create' | 'bulk-create'; ipns: string[] } | { kind: 'patch' | 'bulk-patch' | 'delete'; changes: Change[] }

interface Server {
  url: string
}

const WHOLE = (ipn: string) => ({
  name: `part ${ipn}`,
  ipn,
  tags: ['crash', ipn.split('-')[0]!.toLowerCase()],
  parameters: [
    { type: 'Resistance', value: '10k', unit: 'Ω' },
    { type: 'Tolerance', value: '1%' },
  ],
  mpns: [{ manufacturer: 'Yageo', partNumber: `RC-${ipn}` }],
})

class Client {
  readonly known = new Map<string, Known>()
  inFlight: InFlight | null = null
  acks = { create: 0, patch: 0, delete: 0, 'bulk-patch': 0, 'bulk-create': 0 }
  private n = 0
  constructor(readonly name: string) {}

  /** Writes until a request fails (the server died); returns how many writes were acknowledged. */
  async run(server: Server, onAck: () => void): Promise<void> {
    for (;;) {
      try {
        await this.step(server)
      } catch (error) {
        if (error instanceof UnexpectedStatus) throw error
        return
      }
      onAck()
    }
  }

  private async step(server: Server): Promise<void> {
    const live = [...this.known].filter(([, k]) => !k.deleted).map(([id]) => id)
    const pick = (count: number) => [...live].sort(() => Math.random() - 0.5).slice(0, count)
    const roll = Math.random()
    const op = this.n++
    if (live.length < 3 || roll < 0.3) {
      const ipn = `${this.name}-${op}`
      this.inFlight = { kind: 'create', ipns: [ipn] }
      const c = await _send(server, 'POST', '/api/components', WHOLE(ipn), 201)
      this.known.set(c.id, { ipn, description: null, deleted: false, version: c.version })
      this.acks.create++
    } else if (roll < 0.4) {
      const ipns = [0, 1, 2].map((j) => `${this.name}-${op}.${j}`)
      this.inFlight = { kind: 'bulk-create', ipns }
      const res = await _send(server, 'POST', '/api/bulk/components', { items: ipns.map(WHOLE) }, 200)
      for (const c of res.items) this.known.set(c.id, { ipn: c.ipn, description: null, deleted: false, version: c.version })
      this.acks['bulk-create']++
    } else if (roll < 0.65) {
      const [id] = pick(1)
      const description = `${this.name} patch ${op}`
      this.inFlight = { kind: 'patch', changes: [{ id: id!, description }] }
      const c = await _send(server, 'PATCH', `/api/components/${id}`, { description }, 200)
      Object.assign(this.known.get(id!)!, { description, version: c.version })
      this.acks.patch++
    } else if (roll < 0.75) {
      const [id] = pick(1)
      this.inFlight = { kind: 'delete', changes: [{ id: id!, deleted: true }] }
      await _send(server, 'DELETE', `/api/components/${id}`, undefined, 204)
      const k = this.known.get(id!)!
      Object.assign(k, { deleted: true, version: k.version + 1 })
      this.acks.delete++
    } else {
      const ids = pick(5)
      const description = `${this.name} bulk ${op}`
      this.inFlight = { kind: 'bulk-patch', changes: ids.map((id) => ({ id, description })) }
      const res = await _send(server, 'PATCH', '/api/bulk/components', { items: ids.map((id) => ({ id, patch: { description } })) }, 200)
      for (const c of res.items) Object.assign(this.known.get(c.id)!, { description, version: c.version })
      this.acks['bulk-patch']++
    }
    this.inFlight = null
  }

  /**
   * Checks the library after a restart against what this client was told, and
   * settles its in-flight request from what the server shows: all or nothing.
   * Returns whether that request turned out applied (null: nothing in flight).
   */
  settle(all: Map<string, any>): boolean | null {
    const touched = new Set(this.inFlight && 'changes' in this.inFlight ? this.inFlight.changes.map((c) => c.id) : [])
    for (const [id, k] of this.known) {
      const c = all.get(id)
      expect(c, `${this.name}: acknowledged ${k.ipn} is missing`).toBeDefined()
      if (touched.has(id)) continue
      expect({ description: c.description ?? null, deleted: c.deletedAt !== null, version: c.version }, `${this.name}: ${k.ipn}`).toEqual({ description: k.description, deleted: k.deleted, version: k.version })
    }
    const flight = this.inFlight
    this.inFlight = null
    let applied: boolean | null = null
    if (flight && 'ipns' in flight) {
      const found = flight.ipns.map((ipn) => [...all.values()].find((c) => c.ipn === ipn))
      applied = found.every(Boolean)
      expect(applied || found.every((c) => !c), `${this.name}: ${flight.kind} of ${flight.ipns.join(', ')} half applied`).toBe(true)
      if (applied) for (const c of found) this.known.set(c.id, { ipn: c.ipn, description: null, deleted: false, version: c.version })
    } else if (flight) {
      const outcome = flight.changes.map((ch) => {
        const c = all.get(ch.id)
        const k = this.known.get(ch.id)!
        const now = { description: c.description ?? null, deleted: c.deletedAt !== null }
        const after = { description: ch.description ?? k.description, deleted: ch.deleted ?? k.deleted }
        const isAfter = now.description === after.description && now.deleted === after.deleted && c.version === k.version + 1
        const isBefore = now.description === k.description && now.deleted === k.deleted && c.version === k.version
        expect(isAfter || isBefore, `${this.name}: ${flight.kind} left ${k.ipn} in neither state: ${JSON.stringify(now)}`).toBe(true)
        if (isAfter) Object.assign(k, after, { version: c.version })
        return isAfter
      })
      applied = outcome.every(Boolean)
      expect(applied || outcome.every((o) => !o), `${this.name}: ${flight.kind} applied to ${outcome.filter(Boolean).length} of ${outcome.length}`).toBe(true)
    }
    // Nothing of this client's exists that it was not told about (or that its in-flight request made).
    const mine = [...all.values()].filter((c) => c.ipn.startsWith(`${this.name}-`))
    expect(mine.map((c) => c.id).sort()).toEqual([...this.known.keys()].sort())
    return applied
  }
}

const _send = (server: Server, method: string, path: string, body: unknown, status: number) => okJson(server.url, method, path, body, status)

async function _everything(server: Server): Promise<Map<string, any>> {
  const res = await fetch(`${server.url}/api/components?limit=100000&includeDeleted=true`)
  expect(res.status).toBe(200)
  const all = (await res.json()) as any[]
  // Every component that exists, acknowledged or not, is whole: its children landed with it.
  for (const c of all) {
    expect(c.tags, `${c.ipn} tags`).toHaveLength(2)
    expect(c.parameters, `${c.ipn} parameters`).toHaveLength(2)
    expect(c.mpns, `${c.ipn} mpns`).toHaveLength(1)
  }
  return new Map(all.map((c) => [c.id, c]))
}

describe('crash durability of a real server', () => {
  it(`keeps every acknowledged write across ${TRIALS} kill -9 during mixed writes from ${CLIENTS} clients, and applies nothing by halves`, { timeout: TRIALS * 30_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'complib-crash-'))
    dirs.push(dataDir)
    const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(`K${i}`))
    const inFlight = { applied: 0, notApplied: 0 }
    for (let trial = 0; trial < TRIALS; trial++) {
      const server: ServeProcess = await serveOn(dataDir)
      if (trial > 0) {
        const all = await _everything(server)
        for (const c of clients) {
          const applied = c.settle(all)
          if (applied !== null) inFlight[applied ? 'applied' : 'notApplied']++
        }
      }
      // Write until 20 to 80 more acknowledgements, then kill -9 at a random moment.
      const target = 20 + Math.floor(Math.random() * 60)
      let acked = 0
      let armed: () => void = () => {}
      const enough = new Promise<void>((resolve) => (armed = resolve))
      const writing = clients.map((c) => c.run(server, () => ++acked >= target && armed()))
      await enough
      await new Promise((r) => setTimeout(r, Math.random() * 150))
      await killHard(server.child)
      await Promise.all(writing)
    }
    const server = await serveOn(dataDir)
    try {
      const all = await _everything(server)
      for (const c of clients) {
        const applied = c.settle(all)
        if (applied !== null) inFlight[applied ? 'applied' : 'notApplied']++
      }
    } finally {
      await server.stop({ keepData: true })
    }
    const acks = clients.reduce((sum, c) => sum + Object.values(c.acks).reduce((a, b) => a + b, 0), 0)
    const byKind = Object.keys(clients[0]!.acks).map((k) => `${k} ${clients.reduce((s, c) => s + c.acks[k as keyof Client['acks']], 0)}`)
    console.log(`crash durability: ${TRIALS} kill -9 trials, ${acks} acknowledged writes (${byKind.join(', ')}), all present at their version; in flight at the kill: ${inFlight.applied} applied whole, ${inFlight.notApplied} not applied, 0 partial`)
    expect(acks).toBeGreaterThanOrEqual(TRIALS * 20)
  })

  it('starts on a torn write-ahead log: a frame cut short or garbage after the last commit is ignored, every commit before it kept', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'complib-torn-'))
    dirs.push(dataDir)
    let server = await serveOn(dataDir)
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await _send(server, 'POST', '/api/components', WHOLE(`T-${i}`), 201)).id)
    await killHard(server.child)
    const wal = join(dataDir, 'complib.db-wal')

    // The last commit's last frame cut short, as a power cut mid-write leaves it: SQLite's
    // checksums end the log at the last whole commit, so that write goes. The last commit is
    // T-4's entry of the audit trail, appended after the component's own (decision 1506): the
    // entry goes, the component and every earlier entry stay, and the chain is intact.
    const whole = statSync(wal).size
    truncateSync(wal, whole - 7)
    server = await serveOn(dataDir)
    let all = await _everything(server)
    expect(ids.every((id) => all.has(id))).toBe(true)
    const trail = (await _send(server, 'GET', '/api/audit?action=createComponent', undefined, 200)) as Array<{ target: { id: string } }>
    expect(trail.map((e) => e.target.id)).toEqual(ids.slice(0, 4).reverse())
    expect(await _send(server, 'GET', '/api/audit/verify', undefined, 200)).toMatchObject({ intact: true })
    // New writes follow the last whole commit and survive the next crash.
    ids.push((await _send(server, 'POST', '/api/components', WHOLE('T-5'), 201)).id)
    await killHard(server.child)

    // Garbage after the last frame: ignored, everything before it kept.
    appendFileSync(wal, Buffer.from('\u0000\u0001garbage that is not a frame \u00ff'.repeat(200), 'latin1'))
    server = await serveOn(dataDir)
    all = await _everything(server)
    expect(ids.every((id) => all.has(id))).toBe(true)
    await server.stop({ keepData: true })
  })
})
