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

/**
 * Runs connector code in an isolated-vm isolate: its own heap and globals,
 * no `require`, `process`, file system or network. The host functions it may
 * call are captured in a closure by a bootstrap script, so the code never
 * holds a raw Reference; everything crossing the boundary is copied (JSON).
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
      const entities = JSON.parse(json) as unknown
      if (!Array.isArray(entities)) throw new Error('helpers.sendWebhook(url, entities): entities must be an array')
      return call.helpers.sendWebhook(url, { json, count: entities.length })
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
    calls.get(Number(id))?.helpers.log(String(line).slice(0, 2000))
  })

  try {
    // The code first (its `push` becomes a global), then the bootstrap, which it cannot undo.
    const script = await isolate.compileScript(options.code, { filename: 'connector.js' })
    await script.run(context, { timeout: cpuTimeout })
    script.release()
    await context.evalClosure(BOOTSTRAP, [send, sleep, log], { timeout: cpuTimeout })
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose()
    throw _sandboxError(error)
  }
  const run = (await context.global.get('__complibRun', { reference: true })) as ivm.Reference

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
        throw _sandboxError(error)
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

// Runs inside the isolate. $0..$2 are the host References; only this closure keeps them.
const BOOTSTRAP = /* js */ `
const sendRef = $0, sleepRef = $1, logRef = $2
const copy = { arguments: { copy: true }, result: { copy: true, promise: true } }
const unwrap = (r) => { if (r && typeof r.error === 'string') throw new Error(r.error); return r.value }
const stringify = (v) => { try { return typeof v === 'string' ? v : JSON.stringify(v) } catch { return String(v) } }
globalThis.__complibRun = async (callId, entitiesJson, configJson) => {
  if (typeof push !== 'function') throw new Error('the connector code defines no function named push')
  const given = JSON.parse(entitiesJson)
  const helpers = Object.freeze({
    // Passing on the array as given (the usual case) sends the host's own JSON: no second serialization.
    sendWebhook: async (url, entities) => unwrap(await sendRef.apply(undefined, [callId, url, entities === given ? null : JSON.stringify(entities)], copy)),
    sleep: async (ms) => { unwrap(await sleepRef.apply(undefined, [callId, ms], copy)) },
    log: (...args) => { logRef.applyIgnored(undefined, [callId, args.map(stringify).join(' ')], { arguments: { copy: true } }) },
  })
  try {
    await push(given, Object.freeze(JSON.parse(configJson)), helpers)
  } catch (e) {
    // Only the message crosses the isolate boundary: carry a numeric status in it.
    const message = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)
    const status = e && typeof e === 'object' && typeof e.status === 'number' ? e.status : undefined
    throw new Error(${JSON.stringify(MARK)} + JSON.stringify({ message, status }))
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
function _sandboxError(error: unknown): Error {
  let message = error instanceof Error ? error.message : String(error)
  let status = (error as { status?: unknown })?.status
  if (message.startsWith(MARK)) {
    const carried = JSON.parse(message.slice(MARK.length)) as { message: string; status?: number }
    message = carried.message
    status = carried.status
  }
  const e = new Error(/memory limit/i.test(message) ? 'the connector code ran out of memory (isolate memory limit)' : message)
  if (typeof status === 'number') Object.assign(e, { status })
  return e
}
