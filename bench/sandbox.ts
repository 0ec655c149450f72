// The connector sandbox alone, without HTTP or storage: `node --import tsx bench/sandbox.ts`.
// Per-batch overhead of a push() that passes 250 components on untouched (the default
// code) and of one that maps over them, the cost of starting a sandbox, and the memory
// a live sandbox holds. The helpers answer at once, so what is timed is the sandbox.
import { createRandom, makeComponent } from './lib/library-data'
import { createSandbox, DEFAULT_WEBHOOK_CODE, type HostHelpers } from '@complib/connector-webhook'

const random = createRandom(7)
const entities = Array.from({ length: 250 }, (_, i) => ({ id: `cmp_${String(i).padStart(26, '0')}`, ...makeComponent(i, random) }))
const json = JSON.stringify(entities)
const batch = { bytes: Buffer.from(json, 'utf8'), count: entities.length }
const config = { url: 'http://127.0.0.1:9/hook' }
const MAP_CODE = `async function push(entities, config, helpers) {
  await helpers.sendWebhook(config.url, entities.map((e) => ({ id: e.id, name: e.name.toUpperCase(), tags: e.tags })))
}`
let sentBytes = 0
const helpers: HostHelpers = {
  sendWebhook: async (_url, e) => ((sentBytes += e.bytes.byteLength), { ok: true, status: 202 }),
  sleep: async () => {},
  log: () => {},
}
const line = (what: string, value: string) => console.log(`sandbox: ${what.padEnd(52)} ${value}`)
line('batch', `${entities.length} entities, ${(json.length / 1024).toFixed(0)} KiB of JSON`)

async function perCall(code: string, rounds: number): Promise<number> {
  const sandbox = await createSandbox({ code })
  for (let i = 0; i < 50; i++) await sandbox.push(batch, config, helpers)
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint()
    await sandbox.push(batch, config, helpers)
    times.push(Number(process.hrtime.bigint() - t) / 1000)
  }
  sandbox.dispose()
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

line('push(), entities passed on untouched (median)', `${(await perCall(DEFAULT_WEBHOOK_CODE, 500)).toFixed(0)} µs`)
line('push(), entities mapped (median)', `${(await perCall(MAP_CODE, 200)).toFixed(0)} µs`)
line('JSON.parse of the batch in the host, for scale', `${(() => { const t = performance.now(); for (let i = 0; i < 100; i++) JSON.parse(json); return ((performance.now() - t) * 10).toFixed(0) })()} µs`)

const starts: number[] = []
for (let i = 0; i < 20; i++) {
  const t = performance.now()
  const s = await createSandbox({ code: DEFAULT_WEBHOOK_CODE })
  starts.push(performance.now() - t)
  s.dispose()
}
starts.sort((a, b) => a - b)
line('createSandbox() (median of 20, after the first)', `${starts[10]!.toFixed(1)} ms (first ${starts.at(-1)!.toFixed(1)} ms)`)

const gc = (globalThis as { gc?: () => void }).gc
await new Promise((r) => setTimeout(r, 200))
gc?.()
const before = process.memoryUsage().rss
const live = []
for (let i = 0; i < 10; i++) {
  const s = await createSandbox({ code: DEFAULT_WEBHOOK_CODE })
  await s.push(batch, config, helpers)
  live.push(s)
}
gc?.()
line('memory of a live sandbox after one push (RSS / 10)', `${((process.memoryUsage().rss - before) / 10 / 1048576).toFixed(1)} MiB`)
for (const s of live) s.dispose()
