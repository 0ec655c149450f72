import ivm from 'isolated-vm'

/** What the sandboxed code can reach: these host functions, and nothing else. */
export interface HostHelpers {
  /** One signed delivery of the entities the code passed, as JSON text of an array, with their count. */
  sendWebhook(url: string, entities: EntitiesJson): Promise<{ ok: boolean; status: number; retryAfter?: number | undefined }>
  sleep(ms: number): Promise<void>
  log(line: string): void
}

/** An array of entities as JSON text (`[…]`), with how many it holds. */
export interface EntitiesJson {
  json: string
  count: number
}

export interface SandboxOptions {
  code: string
  /** Heap limit of the isolate (default 64 MiB). */
  memoryMb?: number | undefined
  /** CPU time one synchronous stretch of the code may take (default 2,000 ms). */
  cpuTimeoutMs?: number | undefined
  /** Wall-clock time one push() call may take, awaits included (default 10 minutes). */
  wallTimeoutMs?: number | undefined
}

export interface Sandbox {
  /**
   * Calls the code's `push(entities, config, helpers)` with `entities` given as
   * JSON text; rejects with the code's error, a timeout, or the memory limit.
   */
  push(entities: EntitiesJson, config: Record<string, unknown>, helpers: HostHelpers): Promise<void>
  dispose(): void
}

/** Largest delay one helpers.sleep() may ask for. */
export const MAX_SLEEP_MS = 5 * 60_000
/** Log lines of one push() call that reach the host, and their length: the rest never leaves the isolate. */
export const MAX_LOG_LINES = 200
export const MAX_LOG_LINE_CHARS = 2000
/** Helper calls (sendWebhook, sleep) of one push() call that may be pending at once. */
export const MAX_PENDING_HELPER_CALLS = 8
/** Entities the code built itself (not the array it was given) held by the host for sending, across all calls. */
export const MAX_BUILT_ENTITIES_CHARS = 32 * 1024 * 1024

/**
 * Runs connector code in an isolated-vm isolate: its own heap and globals,
 * no `require`, `process`, file system or network. The host functions it may
 * call are captured in a closure by a bootstrap script, so the code never
 * holds a raw Reference; everything crossing the boundary is copied (JSON).
 * What one call can make the host hold is bounded (log lines, pending helper
 * calls, bytes of entities the code built), so the code's memory limit is
 * not a way around the server's.
 *
 * @example
 * const sandbox = await createSandbox({ code })
 * await sandbox.push(entities, config, { sendWebhook, sleep, log })
 */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const isolate = new ivm.Isolate({ memoryLimit: options.memoryMb ?? 64 })
  const context = await isolate.createContext()
  const cpuTimeout = options.cpuTimeoutMs ?? 2000
  const wallTimeout = options.wallTimeoutMs ?? 10 * 60_000
  // The helpers of the push() call in progress, by call id: calls may overlap (concurrent batches).
  const calls = new Map<number, { helpers: HostHelpers; entities: EntitiesJson }>()
  let nextCall = 0
  let builtChars = 0
  const callOf = (id: unknown) => {
    const call = calls.get(Number(id))
    if (!call) throw new Error('this push() call has already finished')
    return call
  }
  // Host functions never reject: a rejected promise handed to isolated-vm can surface as an
  // unhandled rejection in the host, which would take the server down. They answer
  // { value } or { error }, and the bootstrap throws inside the isolate.
  const send = new ivm.Reference((id: number, url: unknown, json: unknown) =>
    _settle(async () => {
      if (typeof url !== 'string') throw new Error('helpers.sendWebhook(url, entities): url must be a string')
      const call = callOf(id)
      // null: the code passed on the very array it was given, so its JSON is the one we made.
      if (json === null) return call.helpers.sendWebhook(url, call.entities)
      if (typeof json !== 'string') throw new Error('helpers.sendWebhook(url, entities): entities must be an array')
      if (builtChars + json.length > MAX_BUILT_ENTITIES_CHARS) {
        throw new Error(`helpers.sendWebhook: the entities the code built come to more than ${MAX_BUILT_ENTITIES_CHARS / 1048576} MiB waiting to be sent`)
      }
      const entities = JSON.parse(json) as unknown
      if (!Array.isArray(entities)) throw new Error('helpers.sendWebhook(url, entities): entities must be an array')
      if (!entities.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e))) throw new Error('helpers.sendWebhook(url, entities): entities must be an array of objects')
      builtChars += json.length
      try {
        return await call.helpers.sendWebhook(url, { json, count: entities.length })
      } finally {
        builtChars -= json.length
      }
    }),
  )
  const sleep = new ivm.Reference((id: number, ms: unknown) =>
    _settle(async () => {
      const n = Number(ms)
      if (!Number.isFinite(n) || n < 0 || n > MAX_SLEEP_MS) throw new Error(`helpers.sleep(ms): ms must be a number from 0 to ${MAX_SLEEP_MS}`)
      await callOf(id).helpers.sleep(n)
      return null
    }),
  )
  const log = new ivm.Reference((id: number, line: unknown) => {
    calls.get(Number(id))?.helpers.log(String(line).slice(0, MAX_LOG_LINE_CHARS))
  })

  let run: ivm.Reference
  try {
    // The bootstrap first: it keeps the built-ins it uses before the code can replace them, and
    // hands the host its entry point directly (no global the code could reach or intercept).
    run = await context.evalClosure(BOOTSTRAP, [send, sleep, log], { timeout: cpuTimeout, result: { reference: true } })
    const script = await isolate.compileScript(options.code, { filename: 'connector.js' })
    await script.run(context, { timeout: cpuTimeout })
    script.release()
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose()
    throw _sandboxError(error, cpuTimeout)
  }

  return {
    async push(entities, config, helpers) {
      if (isolate.isDisposed) throw new Error('the sandbox was stopped (a previous call ran out of time or memory)')
      const id = nextCall++
      calls.set(id, { helpers, entities })
      let timer: NodeJS.Timeout | undefined
      try {
        const call = run.apply(undefined, [id, entities.json, JSON.stringify(config)], {
          arguments: { copy: true },
          result: { promise: true },
          timeout: cpuTimeout,
        })
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`push() did not finish within ${wallTimeout} ms`)), wallTimeout)
        })
        await Promise.race([call, deadline])
      } catch (error) {
        // A stuck or runaway call cannot be stopped on its own: stop the whole isolate.
        if (/did not finish within/.test(String(error)) && !isolate.isDisposed) isolate.dispose()
        throw _sandboxError(error, cpuTimeout)
      } finally {
        clearTimeout(timer)
        calls.delete(id)
      }
    },
    dispose() {
      if (!isolate.isDisposed) isolate.dispose()
    },
  }
}

const MARK = '\u0000complib-error:'

// Runs inside the isolate, before the connector code; returns the entry point of a push() call.
// $0..$2 are the host References; only this closure keeps them.
const BOOTSTRAP = /* js */ `
const sendRef = $0, sleepRef = $1, logRef = $2
const { parse, stringify } = JSON
const freeze = Object.freeze, toString = String, HostError = Error, HostTypeError = TypeError
const slice = Function.prototype.call.bind(String.prototype.slice)
const copy = { arguments: { copy: true }, result: { copy: true, promise: true } }
const HostProxy = Proxy, reflect = { get: Reflect.get, set: Reflect.set, has: Reflect.has, ownKeys: Reflect.ownKeys, describe: Reflect.getOwnPropertyDescriptor, define: Reflect.defineProperty, remove: Reflect.deleteProperty }
// The entities as an array parsed on first use: code that passes them on untouched (the default
// code does) costs no parse at all. Reads, writes, iteration, JSON and Array.isArray behave as on
// the parsed array; it cannot be frozen.
const lazyArray = (json) => {
  let real
  const parsed = () => (real === undefined ? (real = parse(json)) : real)
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
const unwrap = (r) => { if (r && typeof r.error === 'string') throw new HostError(r.error); return r.value }
const text = (v) => { try { return typeof v === 'string' ? v : toString(stringify(v)) } catch { try { return toString(v) } catch { return '[unprintable]' } } }
return async (callId, entitiesJson, configJson) => {
  if (typeof push !== 'function') throw new HostError('the connector code defines no function named push')
  const lazy = lazyArray(entitiesJson), given = lazy.array
  let pending = 0, logged = 0
  // Counted here, before anything is serialized or copied out: a flood of calls never reaches the host.
  const call = async (ref, args) => {
    if (pending >= ${MAX_PENDING_HELPER_CALLS}) throw new HostError('at most ${MAX_PENDING_HELPER_CALLS} helper calls of one push() may be pending at once; await them')
    pending++
    try { return unwrap(await ref.apply(undefined, args(), copy)) } finally { pending-- }
  }
  const helpers = freeze({
    sendWebhook: async (url, entities) => {
      if (typeof url !== 'string') throw new HostTypeError('helpers.sendWebhook(url, entities): url must be a string')
      // Passing on the array as given, untouched (the usual case), sends the host's own JSON: no parse, no second serialization.
      return call(sendRef, () => [callId, url, entities === given ? lazy.json() : stringify(entities)])
    },
    sleep: async (ms) => { await call(sleepRef, () => [callId, typeof ms === 'number' || typeof ms === 'string' ? ms : NaN]) },
    log: (...args) => {
      if (logged++ >= ${MAX_LOG_LINES}) return
      let line = ''
      for (let i = 0; i < args.length && line.length < ${MAX_LOG_LINE_CHARS}; i++) line += (i ? ' ' : '') + text(args[i])
      logRef.applyIgnored(undefined, [callId, slice(line, 0, ${MAX_LOG_LINE_CHARS})], { arguments: { copy: true } })
    },
  })
  try {
    await push(given, freeze(parse(configJson)), helpers)
  } catch (e) {
    // Only the message crosses the isolate boundary: carry a numeric status in it (no JSON: the code may have a toJSON on Object.prototype).
    let message
    try { message = slice(toString(e && typeof e === 'object' && 'message' in e ? e.message : e), 0, 4000) } catch { message = 'the connector code threw something unprintable' }
    const status = e && typeof e === 'object' && typeof e.status === 'number' && e.status >= 0 && e.status < 1000 ? toString(e.status | 0) : ''
    throw new HostError(${JSON.stringify(MARK)} + status + ':' + message)
  }
}
`

async function _settle<T>(fn: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await fn() }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** Errors from inside the isolate come as plain Errors; keep their message, never a host stack. */
function _sandboxError(error: unknown, cpuTimeout: number): Error {
  let message = error instanceof Error ? error.message : String(error)
  let status = (error as { status?: unknown })?.status
  const carried = message.startsWith(MARK) ? /^(\d*):([\s\S]*)$/.exec(message.slice(MARK.length)) : null
  if (carried) {
    message = carried[2]!
    status = carried[1] ? Number(carried[1]) : undefined
  }
  if (/memory limit/i.test(message)) message = 'the connector code ran out of memory (isolate memory limit)'
  else if (message === 'Script execution timed out.') message = `the connector code ran for more than ${cpuTimeout} ms without pausing (CPU time limit)`
  const e = new Error(message)
  if (typeof status === 'number') Object.assign(e, { status })
  return e
}
