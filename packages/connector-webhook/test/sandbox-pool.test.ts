import { ComplibError } from '@complib/core'
import { createSqliteStorage } from '@complib/core/sqlite'
import { startReceiver } from '@complib/test-support/receiver'
import { describe, expect, it } from 'vitest'
import { createPushRunner } from '../src/runner'
import { SANDBOX_OVERHEAD_MB, createSandboxPool, type SandboxLease } from '../src/sandbox-pool'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
/** Whether a promise has settled yet, without waiting for it. */
const settledYet = async (p: Promise<unknown>) => {
  let done = false
  void p.then(
    () => (done = true),
    () => (done = true),
  )
  await new Promise((r) => setImmediate(r))
  return done
}

describe('the sandbox pool', () => {
  it('runs a few dry runs at once, queues a few more, and refuses the rest with 429 and Retry-After', async () => {
    const pool = createSandboxPool({ dryRuns: 2, queue: 1, memoryMb: 10_000 })
    const a = await pool.dryRun(64)
    const b = await pool.dryRun(64)
    const queued = pool.dryRun(64)
    expect(await settledYet(queued)).toBe(false)
    const refused = await pool.dryRun(64).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ComplibError)
    expect(refused).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) } })
    expect((refused as Error).message).toContain('too many dry runs at once: 2 run and 1 wait')
    expect(pool.stats()).toMatchObject({ dryRunsRunning: 2, dryRunsQueued: 1 })
    // A place freed goes to the one waiting.
    a.release()
    const c = await queued
    expect(pool.stats()).toMatchObject({ dryRunsRunning: 2, dryRunsQueued: 0 })
    // Released twice counts once.
    a.release()
    expect(pool.stats().dryRunsRunning).toBe(2)
    b.release()
    c.release()
    expect(pool.stats()).toMatchObject({ dryRunsRunning: 0, memoryMbInUse: 0 })
  })

  it('counts every sandbox’s memory limit and overhead against one budget: pushes wait for it, never refused', async () => {
    const per = 64 + SANDBOX_OVERHEAD_MB
    const pool = createSandboxPool({ dryRuns: 4, queue: 0, memoryMb: per * 2 })
    const signal = new AbortController().signal
    const p1 = await pool.push(64, signal)
    const d1 = await pool.dryRun(64)
    expect(pool.stats().memoryMbInUse).toBe(per * 2)
    // The budget is spent: with no queue, a dry run is refused, though dry-run places are free.
    await expect(pool.dryRun(64)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' })
    // A push is not refused: it waits for memory.
    const p2 = pool.push(64, signal)
    expect(await settledYet(p2)).toBe(false)
    expect(pool.stats().pushesWaiting).toBe(1)
    d1.release()
    ;(await p2).release()
    p1.release()
    expect(pool.stats().memoryMbInUse).toBe(0)
  })

  it('a waiting push leaves the queue when its run is cancelled or stopped, and lets the ones behind it through', async () => {
    const per = 64 + SANDBOX_OVERHEAD_MB
    const pool = createSandboxPool({ dryRuns: 1, queue: 2, memoryMb: per })
    const held = await pool.push(64, new AbortController().signal)
    const cancel = new AbortController()
    const waiting = pool.push(64, cancel.signal)
    const behind = pool.dryRun(64)
    cancel.abort(new Error('cancelled'))
    await expect(waiting).rejects.toThrow('cancelled')
    expect(pool.stats()).toMatchObject({ pushesWaiting: 0, dryRunsQueued: 1 })
    held.release()
    const lease: SandboxLease = await behind
    lease.release()
    expect(pool.stats().memoryMbInUse).toBe(0)
  })

  it('sizes itself from the machine: at least one dry run, a queue behind it, a budget in MB', () => {
    const { limits } = createSandboxPool().stats()
    expect(limits.dryRuns).toBeGreaterThanOrEqual(1)
    expect(limits.queue).toBe(limits.dryRuns * 4)
    expect(limits.memoryMb).toBeGreaterThan(0)
  })
})

describe('a runner’s dry runs and pushes share its pool', () => {
  it('infinite loops beyond the pool are refused, the ones in it are cut by the CPU limit and free their places', async () => {
    const storage = await createSqliteStorage()
    const sandboxPool = createSandboxPool({ dryRuns: 2, queue: 2 })
    const runner = createPushRunner({ storage, sandbox: { cpuTimeoutMs: 300 }, sandboxPool })
    try {
      await storage.components.create({ name: 'A' })
      const c = await storage.connectors.create({ name: 'Loop', type: 'webhook', enabled: true, config: { url: 'http://127.0.0.1:9/hook' }, secret: SECRET, code: 'async function push() { for (;;) {} }' })
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => runner.dryRun(c.id)))
      const refused = results.filter((r) => r.status === 'rejected')
      const ran = results.filter((r) => r.status === 'fulfilled')
      expect(refused.length).toBeGreaterThanOrEqual(1)
      expect(ran.length).toBeGreaterThanOrEqual(2)
      for (const r of refused) expect(r.reason).toMatchObject({ code: 'TOO_MANY_REQUESTS' })
      for (const r of ran) expect(r.value.error).toMatch(/CPU time limit|did not finish/)
      expect(sandboxPool.stats()).toMatchObject({ dryRunsRunning: 0, dryRunsQueued: 0, memoryMbInUse: 0 })
    } finally {
      await runner.close()
      await storage.close()
    }
  })

  it('a push holds its sandbox’s memory while it runs and gives it back when it ends', async () => {
    const storage = await createSqliteStorage()
    const receiver = await startReceiver(() => ({ status: 202, delayMs: 300 }))
    const sandboxPool = createSandboxPool({ dryRuns: 2, queue: 2 })
    const runner = createPushRunner({ storage, sandboxPool })
    try {
      await storage.components.create({ name: 'A' })
      const c = await storage.connectors.create({ name: 'Hook', type: 'webhook', enabled: true, config: { url: receiver.url }, secret: SECRET, code: null })
      const run = await runner.start(c.id, 'manual')
      await expect.poll(() => sandboxPool.stats().memoryMbInUse).toBe(64 + SANDBOX_OVERHEAD_MB)
      await runner.settled(c.id)
      expect((await storage.runs.get(run.id)).status).toBe('succeeded')
      expect(sandboxPool.stats().memoryMbInUse).toBe(0)
    } finally {
      await runner.close()
      await receiver.close()
      await storage.close()
    }
  })
})
