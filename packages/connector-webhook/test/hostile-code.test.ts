import { createSqliteStorage } from '@complib/core/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { createPushRunner } from '../src/runner'
import { startReceiver } from '@complib/test-support/receiver'

// Hostile connector code, as whole push runs: each case fails its run with a
// clear error in the run record, sends nothing it did not ask for, and a
// well-behaved connector pushing at the same time delivers everything.
// (src/sandbox.test.ts checks the sandbox itself; this checks the runs.)

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const LIMITS = { cpuTimeoutMs: 500, wallTimeoutMs: 1500 }
const cleanup: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const fn of cleanup) await fn()
})

const body = (code: string) => `async function push(entities, config, helpers) { ${code} }`

/** `sent`: at most this many deliveries, which the code itself asked for before it failed (none unless said). */
const CASES: Array<{ name: string; code: string; error: RegExp | string; batch?: number; sent?: number }> = [
  { name: 'require', code: body(`require('fs').writeFileSync('/tmp/complib-pwned', 'x')`), error: "'require' is not defined" },
  { name: 'process', code: body(`process.exit(1)`), error: "'process' is not defined" },
  { name: 'globalThis.process', code: body(`globalThis.process.mainModule.require('child_process')`), error: "cannot read property 'mainModule' of undefined" },
  { name: 'the global object through Function', code: body(`const g = globalThis.constructor.constructor('return this')(); g.require('fs')`), error: 'not a function' },
  { name: "constructor.constructor('return process')()", code: body(`this.constructor.constructor('return process')().exit(1)`), error: "'process' is not defined" },
  // The helper is an async function: its constructor makes async functions, so the escape is awaited.
  { name: "a helper's constructor", code: body(`(await helpers.sendWebhook.constructor('return process')()).exit(1)`), error: "'process' is not defined" },
  { name: 'a helper called with a number for the url', code: body(`await helpers.sendWebhook(42, entities)`), error: 'helpers.sendWebhook(url, entities): url must be a string' },
  { name: 'a helper called with text for the entities', code: body(`await helpers.sendWebhook(config.url, 'everything')`), error: 'helpers.sendWebhook(url, entities): entities must be an array' },
  { name: 'sleep called with words', code: body(`await helpers.sleep('a while')`), error: /^\[connector:webhook\] batch 0: helpers\.sleep\(ms\): ms must be a number from 0 to 300000$/ },
  { name: 'functions passed to sendWebhook', code: body(`await helpers.sendWebhook(config.url, [() => 1, () => 2])`), error: 'helpers.sendWebhook(url, entities): entities must be an array of objects' },
  { name: 'a proxy passed to sendWebhook', code: body(`await helpers.sendWebhook(config.url, new Proxy(entities, { get: (t, k) => (k === 'length' ? 1e9 : t[k]) }))`), error: /Invalid string length|CPU time limit/ },
  {
    name: 'a helper kept after its call returned',
    code: `let kept; ${body(`if (!kept) { kept = helpers; return } await kept.sendWebhook(config.url, entities)`)}`,
    error: 'this push() call has already finished',
    batch: 1,
  },
  { name: "unawaited sends piling up (a send left pending reopened the failed batch as 'sending')", code: body(`const all = []; for (let i = 0; i < 100; i++) all.push(helpers.sendWebhook(config.url, [{ i }])); await Promise.all(all)`), error: 'at most 8 helper calls of one push() may be pending at once; await them', sent: 16 },
  // The CPU limit, or on a machine too busy to give the sandbox 500 ms of CPU in time, the wall-clock one.
  // Every synchronous stretch is bounded, the ones after an await too.
  { name: 'an infinite loop', code: body(`for (;;) {}`), error: /: (the connector code ran for more than 500 ms without pausing \(CPU time limit\)|push\(\) did not finish within 1500 ms)$/ },
  { name: 'an infinite loop after an await', code: body(`await helpers.sleep(1); for (;;) {}`), error: /: (the connector code ran for more than 500 ms without pausing \(CPU time limit\)|push\(\) did not finish within 1500 ms)$/ },
  // Built-ins that loop natively, where QuickJS never checks its interrupt handler: the watchdog ends them.
  { name: 'a built-in looping natively (indexOf over a huge array-like)', code: body(`Array.prototype.indexOf.call({ length: 1e15 }, 1)`), error: /: (the connector code ran for more than 500 ms without pausing \(CPU time limit\)|push\(\) did not finish within 1500 ms)$/ },
  { name: 'a memory bomb', code: body(`const all = []; for (;;) all.push(new Array(1e6).fill(Math.random()))`), error: 'the connector code ran out of memory (isolate memory limit)' },
  { name: 'an unbounded sleep', code: body(`await helpers.sleep(1e12)`), error: 'helpers.sleep(ms): ms must be a number from 0 to 300000' },
  { name: 'endless sleeping', code: body(`for (;;) await helpers.sleep(300000)`), error: 'push() did not finish within 1500 ms' },
  { name: 'a push that never resolves', code: 'function push() { return new Promise(() => {}) }', error: 'push() did not finish within 1500 ms' },
]

async function library() {
  const storage = await createSqliteStorage()
  const runner = createPushRunner({ storage, sandbox: LIMITS })
  const hostile = await startReceiver()
  const good = await startReceiver()
  cleanup.push(async () => {
    await runner.close()
    await Promise.all([hostile.close(), good.close()])
    await storage.close()
  })
  await storage.transaction(async (tx) => {
    for (let i = 0; i < 300; i++) await tx.components.create({ name: `part ${i}` })
  })
  const connector = (name: string, url: string, code: string | null, concurrency: number) =>
    storage.connectors.create({ type: 'webhook', name, enabled: true, config: { url, requestsPerSecond: 1000, concurrency, cron: null }, secret: SECRET, code })
  /** Pushes the hostile code and a well-behaved connector at the same time. */
  const pushBoth = async (code: string) => {
    const bad = await connector('hostile', hostile.url, code, 1)
    const fine = await connector('fine', good.url, null, 2)
    const [badRun, fineRun] = await Promise.all([runner.start(bad.id, 'manual'), runner.start(fine.id, 'manual')])
    await Promise.all([runner.settled(bad.id), runner.settled(fine.id)])
    return { bad: await storage.runs.get(badRun.id), fine: await storage.runs.get(fineRun.id) }
  }
  return { pushBoth, hostile, good }
}

describe.concurrent('hostile connector code, in a push run', () => {
  for (const c of CASES) {
    it(`${c.name}: fails its run with a clear error, sends nothing, another connector delivers everything`, async () => {
      const { pushBoth, hostile, good } = await library()
      const { bad, fine } = await pushBoth(c.code)
      expect(bad.status).toBe('failed')
      const error = bad.batches[c.batch ?? 0]!.error!
      if (typeof c.error === 'string') expect(error).toBe(`[connector:webhook] batch ${c.batch ?? 0}: ${c.error}`)
      else expect(error).toMatch(c.error)
      expect(bad.error).toMatch(/^[12] of 2 batches failed; first: \[connector:webhook\] batch \d: .+/)
      expect(hostile.received.length).toBeLessThanOrEqual(c.sent ?? 0)
      // Nothing left half-done: no batch still sending, nothing sent after the run ended.
      for (const b of bad.batches) expect(['failed', 'succeeded']).toContain(b.status)
      const count = hostile.received.length
      await new Promise((r) => setTimeout(r, 300))
      expect(hostile.received).toHaveLength(count)
      for (const r of hostile.received) expect(r.raw.toString()).toMatch(/^\{"entities":\[\{"i":\d+\}\]\}$/)
      expect(fine).toMatchObject({ status: 'succeeded', entitiesSent: 300 })
      expect(good.received).toHaveLength(2)
    })
  }

  it('huge log output: the run keeps a bounded log (200 lines a batch, 2,000 characters a line) and sends only what the code asked', async () => {
    const { pushBoth, hostile } = await library()
    const { bad, fine } = await pushBoth(body(`const s = 'x'.repeat(100000); for (let i = 0; i < 100000; i++) helpers.log(i, s); await helpers.sendWebhook(config.url, entities)`))
    expect(bad.status).toBe('succeeded')
    expect(bad.logs).toHaveLength(400)
    expect(bad.logs[0]).toBe(`[batch 0] 0 ${'x'.repeat(2000)}`.slice(0, 2000))
    expect(bad.logs.filter((l) => l.startsWith('[batch 1] 199 '))).toHaveLength(1)
    expect(hostile.received).toHaveLength(2)
    expect(fine.status).toBe('succeeded')
  })

  it('a send left unawaited when push() fails ends before its run does: nothing is still on the wire once the run has ended', async () => {
    const storage = await createSqliteStorage()
    const runner = createPushRunner({ storage, sandbox: LIMITS })
    // The receiver takes 400 ms to answer; the code fails 100 ms after sending.
    const slow = await startReceiver(() => ({ status: 202, delayMs: 400 }))
    cleanup.push(async () => {
      await runner.close()
      await slow.close()
      await storage.close()
    })
    await storage.components.create({ name: 'part' })
    const connector = await storage.connectors.create({
      type: 'webhook',
      name: 'unawaited',
      enabled: true,
      config: { url: slow.url, requestsPerSecond: 1000, concurrency: 1, cron: null },
      secret: SECRET,
      code: body(`helpers.sendWebhook(config.url, entities); await helpers.sleep(100); throw new Error('stopped on purpose')`),
    })
    const run = await runner.start(connector.id, 'manual')
    await runner.settled(connector.id)
    expect(slow.received).toHaveLength(1)
    expect(slow.inFlight()).toBe(0)
    const ended = await storage.runs.get(run.id)
    expect(ended.status).toBe('failed')
    expect(ended.batches[0]!.error).toBe('[connector:webhook] batch 0: stopped on purpose')
    // The record stays as it ended.
    await new Promise((r) => setTimeout(r, 500))
    expect(await storage.runs.get(run.id)).toEqual(ended)
  })
})
