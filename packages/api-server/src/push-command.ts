/**
 * `complib push <connector> [--follow]`: starts a push run on a running
 * server (the server owns the data folder) and, with --follow, shows its
 * progress until it ends. Exit code 0 when the run succeeded.
 */
export interface PushCommandOptions {
  connector: string
  baseUrl: string
  /** An API token (`--token`, `COMPLIB_TOKEN`): the push is recorded as its owner's. Wins over `apiKey`. */
  token?: string | undefined
  /** The server's bootstrap key (`--api-key`, `COMPLIB_API_KEY`). */
  apiKey?: string | undefined
  follow: boolean
  out?: NodeJS.WriteStream | undefined
  pollMs?: number | undefined
}

interface _Run {
  id: string
  status: string
  total: number
  batchesTotal: number
  batchesSucceeded: number
  batchesFailed: number
  entitiesSent: number
  /** Absent from servers before it existed. */
  entitiesSkipped?: number
  error: string | null
  batches?: Array<{ status: string }>
}

export async function pushCommand(options: PushCommandOptions): Promise<number> {
  const out = options.out ?? process.stderr
  const call = async <T>(method: string, path: string): Promise<T> => {
    const res = await fetch(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: _credential(options),
    }).catch((error: Error) => {
      throw new Error(`cannot reach ${options.baseUrl} (${error.message}); is \`complib serve\` running?`)
    })
    const body = (await res.json().catch(() => ({}))) as T & { detail?: string }
    if (!res.ok) throw new Error(`${res.status}: ${body.detail ?? res.statusText}`)
    return body
  }
  try {
    const id = /^con_/.test(options.connector) ? options.connector : await _findByName(call, options.connector)
    const started = await call<_Run>('POST', `/api/connectors/${id}/push`)
    out.write(`complib: run ${started.id} started: ${started.total} components in ${started.batchesTotal} batches\n`)
    if (!options.follow) return 0
    let run = started
    let last = ''
    const show = (line: string) => {
      if (out.isTTY) out.write(`\r${line}`)
      else if (line !== last) out.write(`${line}\n`)
      last = line
    }
    // Live from the run's event stream; a server without it (before 1.0.0-beta.5) is polled.
    const streamed = await _followEvents(options, started.id, (r) => show(_bar(r.batchesSucceeded + r.batchesFailed, r.batchesTotal, r.batchesFailed)))
    if (streamed) run = streamed
    while (run.status === 'queued' || run.status === 'running') {
      await new Promise((r) => setTimeout(r, options.pollMs ?? 500))
      run = await call<_Run>('GET', `/api/connector-runs/${started.id}`)
      const done = run.batches?.filter((b) => b.status === 'succeeded' || b.status === 'failed').length ?? 0
      show(_bar(done, run.batchesTotal, run.batches?.filter((b) => b.status === 'failed').length ?? 0))
    }
    if (out.isTTY) out.write('\n')
    out.write(
      `complib: run ${run.id} ${run.status}: ${run.batchesSucceeded}/${run.batchesTotal} batches delivered, ${run.entitiesSent} components sent, ${run.entitiesSkipped ? `${run.entitiesSkipped} skipped (deleted during the run), ` : ''}${run.batchesFailed} batches failed${run.error ? `\n  ${run.error}` : ''}\n`,
    )
    return run.status === 'succeeded' ? 0 : 1
  } catch (error) {
    out.write(`complib: ${(error as Error).message}\n`)
    return 1
  }
}

/**
 * Reads `GET /api/connector-runs/:id/events` (server-sent events) until its
 * `end` event, calling `onProgress` with each `progress` one. Answers the
 * finished run, or undefined when the server has no such stream or it broke
 * off (the caller then polls).
 */
async function _followEvents(options: PushCommandOptions, runId: string, onProgress: (run: _Run) => void): Promise<_Run | undefined> {
  const res = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/api/connector-runs/${runId}/events`, {
    headers: { accept: 'text/event-stream', ..._credential(options) },
  }).catch(() => undefined)
  if (!res?.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return undefined
  let buffer = ''
  try {
    for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk
      let end: number
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (!event || !data) continue
        if (event === 'progress') onProgress(JSON.parse(data) as _Run)
        if (event === 'end') return JSON.parse(data) as _Run
        if (event === 'error') return undefined
      }
    }
  } catch {
    // The connection broke: polling takes over.
  }
  return undefined
}

/** The `Authorization` header: the token when given, else the API key, else none (keyless loopback). */
function _credential(options: PushCommandOptions): Record<string, string> {
  const secret = options.token || options.apiKey
  return secret ? { authorization: `Bearer ${secret}` } : {}
}

async function _findByName(call: <T>(method: string, path: string) => Promise<T>, name: string): Promise<string> {
  const list = await call<Array<{ id: string; name: string }>>('GET', '/api/connectors?limit=1000')
  const found = list.filter((c) => c.name.toLowerCase() === name.toLowerCase())
  if (found.length !== 1) throw new Error(found.length ? `${found.length} connectors are named "${name}"; use its id` : `no connector named "${name}"`)
  return found[0]!.id
}

function _bar(done: number, total: number, failed: number): string {
  const width = 30
  const filled = total ? Math.round((done / total) * width) : width
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} batches${failed ? `, ${failed} failed` : ''}`
}
