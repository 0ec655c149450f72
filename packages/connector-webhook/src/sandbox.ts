import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { oneLine } from './log-line'

/** What the sandboxed code can reach: these host functions, and nothing else. */
export interface HostHelpers {
  /** One signed delivery of the entities the code passed, as the JSON text of an array in UTF-8 bytes, with their count. */
  sendWebhook(url: string, entities: EntitiesJson): Promise<{ ok: boolean; status: number; retryAfter?: number | undefined }>
  sleep(ms: number): Promise<void>
  log(line: string): void
}

/** An array of entities as JSON text (`[…]`) in UTF-8 bytes, with how many it holds. */
export interface EntitiesJson {
  bytes: Uint8Array
  count: number
}

export interface SandboxOptions {
  code: string
  /** Memory limit of the code's QuickJS runtime (default 64 MiB). */
  memoryMb?: number | undefined
  /** CPU time one synchronous stretch of the code may take (default 2,000 ms). */
  cpuTimeoutMs?: number | undefined
  /** Wall-clock time one push() call may take, awaits included (default 10 minutes). */
  wallTimeoutMs?: number | undefined
}

export interface Sandbox {
  /**
   * Calls the code's `push(entities, config, helpers)` with `entities` given as
   * JSON text in UTF-8 bytes (decoded in the sandbox only if the code looks at
   * them); rejects with the code's error, a timeout, or the memory limit.
   */
  push(entities: EntitiesJson, config: Record<string, unknown>, helpers: HostHelpers): Promise<void>
  dispose(): void
}

/** Largest delay one helpers.sleep() may ask for. */
export const MAX_SLEEP_MS = 5 * 60_000
/** Log lines of one push() call that reach the host, and their length: the rest never leaves the sandbox. */
export const MAX_LOG_LINES = 200
export const MAX_LOG_LINE_CHARS = 2000
/** Helper calls (sendWebhook, sleep) of one push() call that may be pending at once. */
export const MAX_PENDING_HELPER_CALLS = 8
/** Entities the code built itself (not the array it was given) held by the host for sending, across all calls. */
export const MAX_BUILT_ENTITIES_CHARS = 32 * 1024 * 1024

/**
 * Runs connector code in QuickJS (WebAssembly, quickjs-emscripten) on a worker
 * thread of its own: its own heap and globals, no `require`, `process`, file
 * system or network. The functions the code may call are kept in a closure by
 * a bootstrap that runs first, so the code never holds a host handle;
 * everything crossing the boundary is copied (strings and JSON). What one
 * call can make the server hold is bounded (log lines, pending helper calls,
 * bytes of entities the code built), so the code's memory limit is not a way
 * around the server's. A stretch of the code that outruns the CPU limit, in
 * QuickJS or in one of its built-ins, ends the worker (decision 0707).
 *
 * @example
 * const sandbox = await createSandbox({ code })
 * await sandbox.push(entities, config, { sendWebhook, sleep, log })
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const cpuTimeout = options.cpuTimeoutMs ?? 2000
  const wallTimeout = options.wallTimeoutMs ?? 10 * 60_000
  const clock = new SharedArrayBuffer(3 * 8)
  // The entities' bytes reach the worker only if the code looks at them: the worker asks, and
  // waits (Atomics.wait on `handshake`) until they are on `entities`, which it reads synchronously.
  const entities = new MessageChannel()
  const handshake = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(WORKER, {
    workerData: {
      code: options.code,
      memoryMb: options.memoryMb ?? 64,
      cpuTimeoutMs: cpuTimeout,
      wasmModule: await _wasmModule(),
      clock,
      entitiesPort: entities.port2,
      handshake: handshake.buffer,
      limits: { maxLogLines: MAX_LOG_LINES, maxLogLineChars: MAX_LOG_LINE_CHARS, maxPending: MAX_PENDING_HELPER_CALLS, maxBuiltChars: MAX_BUILT_ENTITIES_CHARS, maxSleepMs: MAX_SLEEP_MS },
    },
    // The engine's own heap is QuickJS's (memoryMb, in WebAssembly memory); this bounds the
    // thread's JavaScript around it: entities' JSON of the calls in progress, built JSON checked there.
    resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
    // The worker is plain JavaScript: none of the server's loaders (tsx) or flags.
    execArgv: [],
    transferList: [entities.port2],
  })
  // The push() calls in progress, by call id: calls may overlap (concurrent batches).
  const calls = new Map<number, _Call>()
  let nextCall = 0
  let stopped: string | null = null

  /**
   * Ends the worker; every call in progress fails (the culprit, if known, with the reason itself).
   * On dispose (a cancel or a stop, which also abort the host's requests) a call fails once its
   * helper calls in flight have settled, so their attempts are recorded with the batch.
   */
  const stop = (reason: string, culprit?: number, settleFirst = false) => {
    if (stopped) return
    stopped = reason
    clearInterval(watchdog)
    void worker.terminate()
    entities.port1.close()
    for (const [id, call] of calls) {
      clearTimeout(call.timer)
      const error = new Error(culprit === undefined || culprit === id ? reason : `the sandbox was stopped (${reason})`)
      if (settleFirst && call.inFlight.size) void Promise.allSettled(call.inFlight).then(() => call.reject(error))
      else call.reject(error)
    }
    calls.clear()
  }
  // The CPU limit for what QuickJS cannot interrupt (a built-in looping natively): the worker
  // notes when a stretch of the code began, and its thread's CPU time then where this thread
  // can read it; a stretch far past the limit ends the thread. Where the CPU time can be read,
  // it decides: a thread that waited, or was not scheduled, has not used its time.
  const began = new Float64Array(clock)
  const watchdog = setInterval(() => {
    const start = began[0]!
    if (!start || Date.now() - start <= cpuTimeout + WATCHDOG_GRACE_MS) return
    const used = began[1] ? _threadCpuMs(began[1]) - began[2]! : Infinity
    // The same stretch still (a new one may have begun while its CPU time was read).
    if (used > cpuTimeout + WATCHDOG_GRACE_MS && began[0] === start) stop(_cpuMessage(cpuTimeout))
  }, Math.min(250, Math.max(20, cpuTimeout / 4)))
  watchdog.unref()

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: _FromWorker) => {
      if (stopped) return
      switch (m.t) {
        case 'ready':
          return resolve()
        case 'error':
          return reject(new Error(m.message))
        case 'fatal':
          stop(m.reason === 'cpu' ? _cpuMessage(cpuTimeout) : m.reason === 'memory' ? MEMORY_MESSAGE : m.reason)
          return reject(new Error(stopped!))
        case 'log':
          // One line however it was written, in a dry run's answer as in a run's log (log-line.ts).
          return calls.get(m.call)?.helpers.log(oneLine(m.line.slice(0, MAX_LOG_LINE_CHARS)))
        case 'entities': {
          // The code looked at the entities it was given: a copy of their bytes, moved to the waiting worker.
          const call = calls.get(m.call)
          const bytes = call ? new Uint8Array(call.entities.bytes) : null
          entities.port1.postMessage({ call: m.call, bytes }, bytes ? [bytes.buffer] : [])
          Atomics.add(handshake, 0, 1)
          Atomics.notify(handshake, 0)
          return
        }
        case 'done': {
          const call = calls.get(m.call)
          if (!call) return
          calls.delete(m.call)
          clearTimeout(call.timer)
          if (!m.error) return call.resolve()
          const error = _sandboxError(m.error.message, m.error.status)
          call.reject(error)
          // A runtime that ran out of memory is not trusted with the next call.
          if (error.message === MEMORY_MESSAGE) stop(MEMORY_MESSAGE)
          return
        }
        case 'send':
        case 'sleep': {
          const answer = _answer(m)
          const inFlight = calls.get(m.call)?.inFlight
          inFlight?.add(answer)
          return void answer.then((result) => {
            inFlight?.delete(answer)
            if (!stopped) worker.postMessage({ t: 'reply', req: m.req, result })
          })
        }
      }
    })
    worker.on('error', (error) => {
      const message = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY' ? MEMORY_MESSAGE : `the sandbox failed: ${error.message}`
      stop(message)
      reject(new Error(message))
    })
    worker.on('exit', () => {
      stop('the sandbox was stopped')
      reject(new Error(stopped!))
    })
  })

  // Host functions never reject towards the code: they answer { value } or { error }.
  const _answer = (m: _Send | _Sleep) =>
    _settle(async () => {
      const call = calls.get(m.call)
      if (!call) throw new Error('this push() call has already finished')
      if (m.t === 'sleep') return void (await call.helpers.sleep(m.ms))
      // null: the code passed on the very array it was given, so its JSON is the one we made.
      return call.helpers.sendWebhook(m.url, m.json === null ? call.entities : { bytes: Buffer.from(m.json, 'utf8'), count: m.count })
    })

  try {
    await ready
  } catch (error) {
    stop('the sandbox was stopped')
    throw error
  }

  return {
    push(entities, config, helpers) {
      if (stopped) return Promise.reject(new Error(`the sandbox was stopped (a previous call ran out of time or memory)`))
      const id = nextCall++
      return new Promise<void>((resolve, reject) => {
        // A stuck call cannot be stopped on its own: the whole sandbox stops.
        const timer = setTimeout(() => stop(`push() did not finish within ${wallTimeout} ms`, id), wallTimeout)
        calls.set(id, { helpers, entities, resolve, reject, timer, inFlight: new Set() })
        // The entities stay here until the code looks at them (the default code never does).
        worker.postMessage({ t: 'push', call: id, config: JSON.stringify(config) })
      })
    },
    dispose() {
      stop('the sandbox was stopped', undefined, true)
    },
  }
}

const WORKER = new URL('./_internal/sandbox-worker.js', import.meta.url)
/** How far past the CPU limit a stretch may run before the watchdog ends the worker (QuickJS's own interrupt usually ends it first). */
const WATCHDOG_GRACE_MS = 500
const MEMORY_MESSAGE = 'the connector code ran out of memory (isolate memory limit)'

interface _Call {
  helpers: HostHelpers
  entities: EntitiesJson
  resolve(): void
  reject(error: Error): void
  timer: NodeJS.Timeout
  /** The host's answers to helper calls not yet settled. */
  inFlight: Set<Promise<unknown>>
}
type _Send = { t: 'send'; call: number; req: number; url: string; json: string | null; count: number }
type _Sleep = { t: 'sleep'; call: number; req: number; ms: number }
type _FromWorker =
  | { t: 'ready' }
  | { t: 'error'; message: string }
  | { t: 'fatal'; reason: string }
  | { t: 'log'; call: number; line: string }
  | { t: 'entities'; call: number }
  | { t: 'done'; call: number; error: { message: string; status: number } | null }
  | _Send
  | _Sleep

// The global WebAssembly object, typed here: the declaration build has no WebAssembly types.
// A compiled module is only handed on to the worker, so it stays opaque.
type _WasmModule = object
const _wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<_WasmModule> } }).WebAssembly
let _compiled: Promise<_WasmModule> | undefined
/** QuickJS's WebAssembly, compiled once per process and handed to each worker. */
function _wasmModule(): Promise<_WasmModule> {
  return (_compiled ??= _wasm.compile(readFileSync(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))))
}

async function _settle<T>(fn: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await fn() }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** The CPU time in ms of this process's thread `tid` (Linux), as the sandbox's worker reads its own; NaN once it has ended. */
function _threadCpuMs(tid: number): number {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]) / 1e6
  } catch {
    return Number.NaN
  }
}

function _cpuMessage(cpuTimeout: number): string {
  return `the connector code ran for more than ${cpuTimeout} ms without pausing (CPU time limit)`
}

/** The code's error as the host shows it: its message (never a stack), and its numeric status if it had one. */
function _sandboxError(message: string, status: number): Error {
  const e = new Error(/^(InternalError: )?out of memory$/.test(message) ? MEMORY_MESSAGE : message)
  if (Number.isInteger(status)) Object.assign(e, { status })
  return e
}
