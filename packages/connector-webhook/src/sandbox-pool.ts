import { availableParallelism, totalmem } from 'node:os'
import { ComplibError } from '@complib/core'

export interface SandboxPoolOptions {
  /** Dry runs that may run at once (default: the cores, fewer if the memory budget holds fewer sandboxes). */
  dryRuns?: number | undefined
  /** Dry runs that may wait for one of those places; one more is refused (default four per place). */
  queue?: number | undefined
  /** Memory all sandboxes together may count on, in MB (default a quarter of the memory the process may use). */
  memoryMb?: number | undefined
}

/** What one sandbox holds, as the pool counts it. */
export interface SandboxLease {
  release(): void
}

export interface SandboxPool {
  /**
   * A place for one dry run and its sandbox's memory: at once, after a wait in
   * the queue, or TOO_MANY_REQUESTS (429 with Retry-After) when the queue is full.
   */
  dryRun(memoryMb: number): Promise<SandboxLease>
  /**
   * The memory of one push's sandbox: a push is never refused, it waits
   * (rejecting with the signal's reason once it aborts).
   */
  push(memoryMb: number, signal: AbortSignal): Promise<SandboxLease>
  /** What the pool holds now (tests, diagnostics). */
  stats(): { dryRunsRunning: number; dryRunsQueued: number; pushesWaiting: number; memoryMbInUse: number; limits: Required<SandboxPoolOptions> }
}

/**
 * What one sandbox costs besides its QuickJS memory limit: the worker thread's
 * own V8 heap and the engine's WebAssembly instance (about 33 MB each when 150
 * ran at once; rounded up).
 */
export const SANDBOX_OVERHEAD_MB = 40
/** The memory limit of a sandbox created without one (createSandbox's default). */
export const DEFAULT_SANDBOX_MEMORY_MB = 64

/**
 * One budget for every connector sandbox of a server (decision 0724). Dry runs
 * are requests: each runs QuickJS on a worker thread of its own, CPU-bound, so
 * only a few run at once (the cores) and a bounded queue waits behind them;
 * beyond it the answer is 429, so a burst of them can neither exhaust the
 * server's memory nor starve its event loop of a core. Every sandbox, a push's
 * too, counts its memory limit plus SANDBOX_OVERHEAD_MB against the memory
 * budget; a push waits for its share (it mostly waits on the network, so it
 * takes no dry-run place). Waiters are served in arrival order, so a push is
 * not overtaken forever by dry runs, nor the reverse.
 *
 * @example
 * const lease = await pool.dryRun(64)
 * try { … } finally { lease.release() }
 */
export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  const memoryBudget = Math.max(1, Math.floor(options.memoryMb ?? _defaultMemoryMb()))
  const perDefault = DEFAULT_SANDBOX_MEMORY_MB + SANDBOX_OVERHEAD_MB
  const dryRuns = Math.max(1, Math.floor(options.dryRuns ?? Math.min(availableParallelism(), Math.max(1, Math.floor(memoryBudget / perDefault)))))
  const queueLimit = Math.max(0, Math.floor(options.queue ?? dryRuns * 4))
  const limits = { dryRuns, queue: queueLimit, memoryMb: memoryBudget }

  let running = 0
  let memoryInUse = 0
  const waiting: _Waiter[] = []
  // A dry run's usual length, for Retry-After: a moving average of the last ones (1 s until one finished).
  let averageMs = 1000

  // A sandbox larger than the whole budget still runs, alone: it would otherwise wait forever.
  const cost = (memoryMb: number) => Math.min(memoryBudget, Math.max(1, memoryMb) + SANDBOX_OVERHEAD_MB)
  const fits = (w: { kind: 'dry' | 'push'; cost: number }) => (w.kind === 'push' || running < dryRuns) && memoryInUse + w.cost <= memoryBudget

  // Serves waiters in arrival order; the first that does not fit holds the rest back (no overtaking).
  const drain = () => {
    while (waiting.length && fits(waiting[0]!)) grant(waiting.shift()!)
  }
  const grant = (w: _Waiter) => {
    w.signal?.removeEventListener('abort', w.onAbort)
    w.resolve(lease(w.kind, w.cost))
  }
  const lease = (kind: 'dry' | 'push', mb: number): SandboxLease => {
    if (kind === 'dry') running++
    memoryInUse += mb
    const started = Date.now()
    let released = false
    return {
      release() {
        if (released) return
        released = true
        if (kind === 'dry') {
          running--
          averageMs = averageMs * 0.8 + (Date.now() - started) * 0.2
        }
        memoryInUse -= mb
        drain()
      },
    }
  }
  const enqueue = (w: Omit<_Waiter, 'resolve' | 'reject' | 'onAbort'>) =>
    new Promise<SandboxLease>((resolve, reject) => {
      const waiter: _Waiter = {
        ...w,
        resolve,
        reject,
        onAbort: () => {
          const at = waiting.indexOf(waiter)
          if (at >= 0) waiting.splice(at, 1)
          reject(w.signal!.reason)
          // The one that left may have held back others behind it.
          drain()
        },
      }
      waiting.push(waiter)
      w.signal?.addEventListener('abort', waiter.onAbort, { once: true })
    })

  return {
    dryRun(memoryMb) {
      const w = { kind: 'dry' as const, cost: cost(memoryMb) }
      if (!waiting.length && fits(w)) return Promise.resolve(lease('dry', w.cost))
      const queued = waiting.filter((x) => x.kind === 'dry').length
      if (queued >= queueLimit) {
        // Long enough for the queue ahead and this one to have had their turn, at the recent pace.
        const seconds = Math.min(60, Math.max(1, Math.ceil((averageMs * (queued / dryRuns + 1)) / 1000)))
        return Promise.reject(
          new ComplibError('TOO_MANY_REQUESTS', `too many dry runs at once: ${dryRuns} run and ${queueLimit} wait on this server; try again in ${seconds} s`, {
            headers: { 'retry-after': String(seconds) },
          }),
        )
      }
      return enqueue(w)
    },
    push(memoryMb, signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      const w = { kind: 'push' as const, cost: cost(memoryMb), signal }
      if (!waiting.length && fits(w)) return Promise.resolve(lease('push', w.cost))
      return enqueue(w)
    },
    stats: () => ({
      dryRunsRunning: running,
      dryRunsQueued: waiting.filter((x) => x.kind === 'dry').length,
      pushesWaiting: waiting.filter((x) => x.kind === 'push').length,
      memoryMbInUse: memoryInUse,
      limits,
    }),
  }
}

interface _Waiter {
  kind: 'dry' | 'push'
  cost: number
  signal?: AbortSignal | undefined
  resolve(lease: SandboxLease): void
  reject(reason: unknown): void
  onAbort(): void
}

/** A quarter of what the process may use: the machine's memory, or a container's limit when lower. */
function _defaultMemoryMb(): number {
  const constrained = (process as { constrainedMemory?: () => number | undefined }).constrainedMemory?.() ?? 0
  const bytes = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem()
  return bytes / 4 / 1024 / 1024
}
