// scratch: not committed
import { fork } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import { createPushRunner } from '../packages/connector-webhook/src/runner.ts'
import createSqlJsStorage from '../packages/core/src/storage/sqljs.ts'
import { createRandom, makeComponent } from './lib/library-data'
const size = Number(process.env.SIZE ?? 100000)
const seedDir = `/work/scratch/lib-${size}`
if (!existsSync(seedDir)) {
  const s = await createSqlJsStorage({ dir: seedDir })
  const random = createRandom(42)
  for (let start = 0; start < size; start += 1000) await s.transaction(async (tx) => { for (let i = start; i < Math.min(size, start + 1000); i++) await tx.components.create(makeComponent(i, random)) })
  await s.snapshot(); await s.close()
}
const dir = mkdtempSync(join(tmpdir(), 'prof-')); cpSync(seedDir, dir, { recursive: true }); rmSync(join(dir, 'complib.lock'), { force: true })
const receiver = fork(new URL('./lib/receiver-process.mjs', import.meta.url), { stdio: 'ignore' })
const port = await new Promise<number>((r) => receiver.once('message', (m: any) => r(m.port)))
const storage = await createSqlJsStorage({ dir, log: (m: string) => console.log(new Date().toISOString(), m) } as any)
const connector = await storage.connectors.create({ type: 'webhook', name: 'b', enabled: true, config: { url: `http://127.0.0.1:${port}/h`, requestsPerSecond: 1000, concurrency: 8, cron: null }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', code: null })
const runner = createPushRunner({ storage })
for (let r = 0; r < Number(process.env.ROUNDS ?? 2); r++) {
  const session = new Session(); if (r === 1 && process.env.PROF) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start') }
  const t0 = performance.now()
  const run = await runner.start(connector.id, 'manual'); await runner.settled(connector.id)
  const done = await storage.runs.get(run.id)
  if (r === 1 && process.env.PROF) { const { profile } = await session.post('Profiler.stop'); writeFileSync('/work/scratch/push.cpuprofile', JSON.stringify(profile)) }
  console.log(new Date().toISOString(), done.status, Math.round(size / ((performance.now() - t0) / 1000)), 'components/s')
}
await runner.close(); await storage.close(); receiver.kill(); rmSync(dir, { recursive: true, force: true })
