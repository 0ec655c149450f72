// @ts-check
// The engine side of the connector sandbox (src/sandbox.ts starts it): QuickJS,
// compiled to WebAssembly, in a worker thread of its own. The connector code runs
// inside QuickJS and reaches only the five functions the bootstrap below keeps in a
// closure; this file is trusted code that talks to the server thread by messages.
//
// Why a worker and not the server's own thread (decision 0707): QuickJS checks its interrupt handler between bytecode instructions
// only, so a built-in that loops natively (`Array.prototype.indexOf.call({ length:
// 1e15 })`, `.join`, `.reverse`, `.fill` on a huge array-like) runs for minutes
// without a check. On the server's thread that would stop every request; here it
// stops this worker, and the server's watchdog terminates it.
import { readFileSync, readlinkSync } from 'node:fs'
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import variant from '@jitl/quickjs-wasmfile-release-sync'

/** @type {{ code: string, memoryMb: number, cpuTimeoutMs: number, wasmModule: WebAssembly.Module, clock: SharedArrayBuffer, entitiesPort: import('node:worker_threads').MessagePort, handshake: SharedArrayBuffer, limits: { maxLogLines: number, maxLogLineChars: number, maxPending: number, maxBuiltChars: number, maxSleepMs: number }, mark: string }} */
const data = workerData
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
const { limits } = data
// [0]: when the current synchronous stretch of the code began (0: none runs); [1]: this
// thread's id where the server can read its CPU time (0: it cannot); [2]: that CPU time, in
// ms, when the stretch began. The server's watchdog reads them; a stretch past the CPU limit
// ends this thread.
const clock = new Float64Array(data.clock)
const cpu = _threadCpuClock()

// The hard memory limit is the WebAssembly memory's maximum: QuickJS's own limit
// (memoryLimitBytes) counts 8 bytes a block in this build (no malloc_usable_size under
// Emscripten), so it only refuses single allocations larger than the limit.
const PAGE = 64 * 1024
const maximum = Math.max(1, Math.floor((data.memoryMb * 1024 * 1024) / PAGE))
const memory = new WebAssembly.Memory({ initial: Math.min(256, maximum), maximum })
// A heap that could not grow is the memory limit reached: the sandbox stops after that stretch.
let exhausted = false
const grow = memory.grow.bind(memory)
memory.grow = (pages) => {
  try {
    return grow(pages)
  } catch (error) {
    exhausted = true
    throw error
  }
}
const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: data.wasmModule, wasmMemory: memory }))
const runtime = QuickJS.newRuntime({
  memoryLimitBytes: data.memoryMb * 1024 * 1024,
  // Below the thread's own stack: deep recursion is QuickJS's "stack overflow", not a trap.
  maxStackSizeBytes: 512 * 1024,
})
// The limit is on CPU time, not on the wall clock: a stretch that waited (for its entities,
// while the server's thread was busy) or was not scheduled (a machine stalled by other work)
// has not used its time. The wall clock is checked first, as it is cheap and never behind the
// thread's CPU time; past it, the CPU time decides and sets the next check.
let deadline = Infinity
let cpuAtStart = 0
let interrupted = false
runtime.setInterruptHandler(() => {
  if (Date.now() <= deadline) return false
  const left = cpu ? data.cpuTimeoutMs - (cpu() - cpuAtStart) : 0
  if (left <= 0) return (interrupted = true)
  deadline = Date.now() + left
  return false
})
const vm = runtime.newContext()

/** Calls in progress. Their entities stay on the server thread until the code looks at them (entitiesBytes). */
const calls = /** @type {Map<number, {}>} */ (new Map())
const utf8 = new TextDecoder()
// Counts the server thread's answers on data.entitiesPort; the worker sleeps on it while it waits for one.
const handshake = new Int32Array(data.handshake)
/** How long the code may wait for its entities' bytes (the server thread answers within milliseconds unless it is stopping). */
const ENTITIES_WAIT_MS = 10_000

/**
 * The entities' JSON bytes of a call, asked of the server thread when the code first looks at
 * them: the request goes out, then this thread sleeps until the answer is on the entities port,
 * which it reads synchronously. Only one stretch of code runs at a time, so one request is out.
 */
function entitiesBytes(/** @type {number} */ call) {
  let seen = Atomics.load(handshake, 0)
  port.postMessage({ t: 'entities', call })
  const deadline = Date.now() + ENTITIES_WAIT_MS
  for (;;) {
    for (let m = receiveMessageOnPort(data.entitiesPort); m; m = receiveMessageOnPort(data.entitiesPort)) {
      // An answer to an earlier request that gave up waiting is dropped.
      if (m.message.call !== call) continue
      if (!m.message.bytes) throw new Error('this push() call has already finished')
      return /** @type {Uint8Array} */ (m.message.bytes)
    }
    const left = deadline - Date.now()
    if (left <= 0) throw new Error('the entities did not arrive from the server')
    Atomics.wait(handshake, 0, seen, left)
    seen = Atomics.load(handshake, 0)
  }
}
/** Helper calls waiting for the server's answer. */
const waiting = /** @type {Map<number, { deferred: import('quickjs-emscripten-core').QuickJSDeferredPromise, built: number }>} */ (new Map())
let nextRequest = 0
let builtChars = 0
let dead = false

/** One synchronous stretch of the code, under the CPU limit; any failure of the engine itself is fatal. */
function stretch(/** @type {() => void} */ fn) {
  if (dead) return
  deadline = Date.now() + data.cpuTimeoutMs
  cpuAtStart = cpu ? cpu() : 0
  clock[2] = cpuAtStart
  clock[0] = Date.now()
  try {
    fn()
    // Settle what the stretch set off (awaits resolved, helpers answered) before leaving.
    for (;;) {
      const jobs = runtime.executePendingJobs()
      if (jobs.error) jobs.error.dispose()
      else if (jobs.value === 0) break
      if (interrupted) break
    }
  } catch (error) {
    return fatal(`the sandbox failed: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    deadline = Infinity
    clock[0] = 0
  }
  if (interrupted) fatal('cpu')
  else if (exhausted) fatal('memory')
}

function fatal(/** @type {string} */ reason) {
  if (dead) return
  dead = true
  port.postMessage({ t: 'fatal', reason })
}

const callOf = (/** @type {import('quickjs-emscripten-core').QuickJSHandle} */ id) => {
  const call = calls.get(vm.getNumber(id))
  if (!call) throw new Error('this push() call has already finished')
  return call
}

/** Sends a request to the server thread and hands the code a promise of its answer (JSON text). */
function request(/** @type {number} */ call, /** @type {Record<string, unknown>} */ message, built = 0) {
  const deferred = vm.newPromise()
  const req = nextRequest++
  waiting.set(req, { deferred, built })
  builtChars += built
  port.postMessage({ ...message, call, req })
  // Returned to QuickJS, which keeps its own reference; the deferred keeps resolve/reject.
  return deferred.handle
}

// The bootstrap's host functions; an Error thrown in one reaches the code as an Error with its message.
const hostFunction = vm.newFunction.bind(vm)
const host = [
  // entitiesText(callId): the entities' JSON, when the code first looks at them.
  hostFunction('entitiesText', (id) => (callOf(id), vm.newString(utf8.decode(entitiesBytes(vm.getNumber(id)))))),
  // send(callId, url, json | null): null passes on the entities as given.
  hostFunction('send', (id, url, json) => {
    callOf(id)
    if (vm.typeof(url) !== 'string') throw new Error('helpers.sendWebhook(url, entities): url must be a string')
    if (vm.sameValue(json, vm.null)) return request(vm.getNumber(id), { t: 'send', url: vm.getString(url), json: null })
    if (vm.typeof(json) !== 'string') throw new Error('helpers.sendWebhook(url, entities): entities must be an array')
    // The length is read before the text leaves QuickJS: an oversized one is never copied.
    const length = vm.getProp(json, 'length').consume((n) => vm.getNumber(n))
    if (builtChars + length > limits.maxBuiltChars) {
      throw new Error(`helpers.sendWebhook: the entities the code built come to more than ${limits.maxBuiltChars / 1048576} MiB waiting to be sent`)
    }
    const text = vm.getString(json)
    /** @type {unknown} */
    const entities = JSON.parse(text)
    if (!Array.isArray(entities)) throw new Error('helpers.sendWebhook(url, entities): entities must be an array')
    if (!entities.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e))) throw new Error('helpers.sendWebhook(url, entities): entities must be an array of objects')
    return request(vm.getNumber(id), { t: 'send', url: vm.getString(url), json: text, count: entities.length }, text.length)
  }),
  hostFunction('sleep', (id, ms) => {
    callOf(id)
    const n = vm.typeof(ms) === 'number' || vm.typeof(ms) === 'string' ? Number(vm.dump(ms)) : NaN
    if (!Number.isFinite(n) || n < 0 || n > limits.maxSleepMs) throw new Error(`helpers.sleep(ms): ms must be a number from 0 to ${limits.maxSleepMs}`)
    return request(vm.getNumber(id), { t: 'sleep', ms: n })
  }),
  hostFunction('log', (id, line) => {
    const call = vm.getNumber(id)
    // Posted at once, on the port that later carries the call's 'done': every line
    // reaches the server before the call's end does (decision 0710).
    if (calls.has(call)) port.postMessage({ t: 'log', call, line: vm.getString(line).slice(0, limits.maxLogLineChars) })
  }),
  hostFunction('done', (id, message, status) => {
    // An interrupted stretch or a full heap ends the sandbox (stretch() reports it), whatever the code caught.
    if (interrupted || exhausted) return
    const call = vm.getNumber(id)
    calls.delete(call)
    const error = vm.typeof(message) === 'string' ? { message: vm.getString(message), status: vm.getNumber(status) } : null
    port.postMessage({ t: 'done', call, error })
  }),
]

// The bootstrap runs before the connector code and returns the entry point of a push() call.
let entry
try {
  const bootstrap = vm.unwrapResult(vm.evalCode(_bootstrap(), 'complib-bootstrap.js', { type: 'global', strict: true }))
  entry = vm.unwrapResult(vm.callFunction(bootstrap, vm.undefined, ...host))
  bootstrap.dispose()
} finally {
  for (const h of host) h.dispose()
}

let compileError = null
stretch(() => {
  const result = vm.evalCode(data.code, 'connector.js', { type: 'global' })
  if (result.error) compileError = _describe(result.error.consume((e) => vm.dump(e)))
  else result.value.dispose()
})
if (!dead) port.postMessage(compileError ? { t: 'error', message: compileError } : { t: 'ready' })

port.on('message', (/** @type {any} */ m) => {
  if (dead) return
  if (m.t === 'push') {
    calls.set(m.call, {})
    stretch(() => {
      const args = [vm.newNumber(m.call), vm.newString(m.config)]
      const result = vm.callFunction(entry, vm.undefined, ...args)
      for (const a of args) a.dispose()
      // The entry is async and reports through done(); its promise is not needed.
      if (result.error) {
        const message = _describe(result.error.consume((e) => vm.dump(e)))
        calls.delete(m.call)
        port.postMessage({ t: 'done', call: m.call, error: { message, status: NaN } })
      } else result.value.dispose()
    })
  } else if (m.t === 'reply') {
    const w = waiting.get(m.req)
    if (!w) return
    waiting.delete(m.req)
    builtChars -= w.built
    stretch(() => {
      vm.newString(JSON.stringify(m.result)).consume((answer) => w.deferred.resolve(answer))
      w.deferred.dispose()
    })
  }
})

/**
 * This thread's CPU time in ms, or null where it cannot be read (the wall clock then stands
 * in). On Linux, the kernel's count of the thread's time on a CPU (/proc/.../schedstat, in
 * ns), which the server's thread reads too, by this thread's id (clock[1]); elsewhere Node's
 * process.threadCpuUsage (Node 23.9 and later), which only this thread can read.
 */
function _threadCpuClock() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    const path = `/proc/self/task/${tid}/schedstat`
    const read = () => Number(readFileSync(path, 'latin1').split(' ', 1)[0]) / 1e6
    if (Number.isFinite(read())) {
      clock[1] = tid
      return read
    }
  } catch {
    // Not Linux, or no /proc: Node's own count, if it has one.
  }
  const usage = /** @type {{ threadCpuUsage?: () => { user: number, system: number } }} */ (process).threadCpuUsage
  if (typeof usage !== 'function') return null
  return () => {
    const u = usage.call(process)
    return (u.user + u.system) / 1000
  }
}

/** An error from QuickJS as one line: name and message, and where it was thrown for a syntax error. */
function _describe(/** @type {any} */ e) {
  if (!e || typeof e !== 'object') return String(e)
  const where = e.name === 'SyntaxError' && typeof e.stack === 'string' ? /connector\.js:(\d+)/.exec(e.stack)?.[1] : undefined
  return `${e.name ? `${e.name}: ` : ''}${e.message}${where ? ` (line ${where})` : ''}`
}

function _bootstrap() {
  return /* js */ `(function (entitiesText, sendHost, sleepHost, logHost, doneHost) {
const { parse, stringify } = JSON
const freeze = Object.freeze, toString = String, HostError = Error, HostTypeError = TypeError
const slice = Function.prototype.call.bind(String.prototype.slice)
const HostProxy = Proxy, reflect = { get: Reflect.get, set: Reflect.set, has: Reflect.has, ownKeys: Reflect.ownKeys, describe: Reflect.getOwnPropertyDescriptor, define: Reflect.defineProperty, remove: Reflect.deleteProperty }
// The entities as an array parsed on first use: code that passes them on untouched (the default
// code does) costs no copy into the sandbox and no parse. Reads, writes, iteration, JSON and
// Array.isArray behave as on the parsed array; it cannot be frozen.
const lazyArray = (callId) => {
  let real
  const parsed = () => (real === undefined ? (real = parse(entitiesText(callId))) : real)
  const array = new HostProxy([], {
    get: (_, key) => reflect.get(parsed(), key),
    set: (_, key, value) => reflect.set(parsed(), key, value),
    has: (_, key) => reflect.has(parsed(), key),
    ownKeys: () => reflect.ownKeys(parsed()),
    getOwnPropertyDescriptor: (_, key) => reflect.describe(parsed(), key),
    defineProperty: (_, key, descriptor) => reflect.define(parsed(), key, descriptor),
    deleteProperty: (_, key) => reflect.remove(parsed(), key),
  })
  // Untouched, it is still exactly the host's JSON; once looked into, it may have changed.
  return { array, json: () => (real === undefined ? null : stringify(real)) }
}
const text = (v) => { try { return typeof v === 'string' ? v : toString(stringify(v)) } catch { try { return toString(v) } catch { return '[unprintable]' } } }
return async (callId, configJson) => {
  let failure = null, status = NaN
  try {
    if (typeof push !== 'function') throw new HostError('the connector code defines no function named push')
    const lazy = lazyArray(callId), given = lazy.array
    let pending = 0, logged = 0
    // Counted here, before anything is serialized or copied out: a flood of calls never reaches the host.
    const call = async (fn, args) => {
      if (pending >= ${limits.maxPending}) throw new HostError('at most ${limits.maxPending} helper calls of one push() may be pending at once; await them')
      pending++
      try { return parse(await fn(...args())) } finally { pending-- }
    }
    const helpers = freeze({
      sendWebhook: async (url, entities) => {
        if (typeof url !== 'string') throw new HostTypeError('helpers.sendWebhook(url, entities): url must be a string')
        // Passing on the array as given, untouched (the usual case), sends the host's own JSON: no parse, no second serialization.
        const answer = await call(sendHost, () => [callId, url, entities === given ? lazy.json() : stringify(entities)])
        if (answer.error !== undefined) throw new HostError(answer.error)
        return answer.value
      },
      sleep: async (ms) => {
        const answer = await call(sleepHost, () => [callId, typeof ms === 'number' || typeof ms === 'string' ? ms : NaN])
        if (answer.error !== undefined) throw new HostError(answer.error)
      },
      log: (...args) => {
        if (logged++ >= ${limits.maxLogLines}) return
        let line = ''
        for (let i = 0; i < args.length && line.length < ${limits.maxLogLineChars}; i++) line += (i ? ' ' : '') + text(args[i])
        logHost(callId, slice(line, 0, ${limits.maxLogLineChars}))
      },
    })
    await push(given, freeze(parse(configJson)), helpers)
  } catch (e) {
    // Only the message and a numeric status leave the sandbox (no JSON: the code may have a toJSON on Object.prototype).
    try { failure = slice(toString(e && typeof e === 'object' && 'message' in e ? e.message : e), 0, 4000) } catch { failure = 'the connector code threw something unprintable' }
    try { if (e && typeof e === 'object' && typeof e.status === 'number' && e.status >= 0 && e.status < 1000) status = e.status | 0 } catch {}
  }
  doneHost(callId, failure, status)
}
})`
}
