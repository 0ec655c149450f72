import fc from 'fast-check'
import { ROUTES } from '../../src/routes'
import { DEFAULT_BODY_LIMIT } from '../../src/routing/request'
import type { GeneratedRequest, Operation } from './openapi-requests'
import { sendRaw, type RawResponse } from './raw-http'
import type { ServeProcess } from './server-process'

/** Body limit of every operation, read from the route objects the server registers. */
export function bodyLimits(): Record<string, number> {
  return Object.fromEntries(ROUTES.map((r) => [r.operationId, r.bodyLimit ?? DEFAULT_BODY_LIMIT]))
}

export interface Failure {
  op: string
  defect: string
  request: string
  error: string
}

/** Counts of a fuzz run, and what failed (each with its shrunk request). */
export class FuzzStats {
  sent = 0
  readonly byStatus = new Map<number, number>()
  readonly byOp = new Map<string, number>()
  readonly byDefect = new Map<string, number>()
  readonly failures: Failure[] = []
  /** Ids of records the server created (random writes), by prefix. */
  readonly created = new Map<string, Set<string>>()

  count(req: GeneratedRequest, res: RawResponse): void {
    this.sent++
    _bump(this.byStatus, res.status)
    _bump(this.byOp, req.op)
    _bump(this.byDefect, req.defect)
    if (res.status < 300 && res.contentType.includes('json')) {
      for (const id of res.text.match(/"id":"[a-z]+_[0-9A-HJKMNP-TV-Z]{26}"/g) ?? []) {
        const value = id.slice(6, -1)
        const prefix = value.split('_')[0]!
        if (!this.created.has(prefix)) this.created.set(prefix, new Set())
        this.created.get(prefix)!.add(value)
      }
    }
  }

  /** `sent 1,234: 400 ×900, 404 ×300, …` */
  summary(label: string): string {
    const statuses = [...this.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n.toLocaleString('en')}`)
    return `${label}: ${this.sent.toLocaleString('en')} requests over ${this.byOp.size} operations; by status: ${statuses.join(', ')}`
  }
}

/**
 * The rules every answer obeys: no 5xx; a 4xx is RFC 9457 problem+json
 * (type, title, status equal to the HTTP status, detail; `errors` items
 * with path and message); and an invalid write is refused.
 */
export function checkAnswer(req: GeneratedRequest, res: RawResponse): string | null {
  if (res.status >= 500) return `answered ${res.status}: ${res.text.slice(0, 300)}`
  if (res.status >= 400) {
    if (!res.contentType.startsWith('application/problem+json')) return `answered ${res.status} as "${res.contentType}", not application/problem+json: ${res.text.slice(0, 200)}`
    let p: any
    try {
      p = JSON.parse(res.text)
    } catch {
      return `answered ${res.status} with a problem body that is not JSON: ${res.text.slice(0, 200)}`
    }
    if (typeof p.type !== 'string' || typeof p.title !== 'string' || p.status !== res.status || typeof p.detail !== 'string') {
      return `answered ${res.status} with a problem lacking RFC 9457 fields: ${res.text.slice(0, 300)}`
    }
    if (p.errors !== undefined && !(Array.isArray(p.errors) && p.errors.every((e: any) => typeof e?.path === 'string' && typeof e?.message === 'string'))) {
      return `answered ${res.status} with malformed errors[]: ${res.text.slice(0, 300)}`
    }
  }
  if (req.mustFail && res.status < 400) return `accepted an invalid write (${res.status}): ${res.text.slice(0, 300)}`
  return null
}

/**
 * Sends `numRuns` requests of `arb` as a fast-check property: a broken rule
 * fails the property, fast-check shrinks it to a small request, and the
 * failure is recorded (the run goes on with the next operation).
 */
export async function fuzz(server: ServeProcess, arb: fc.Arbitrary<GeneratedRequest>, numRuns: number, seed: number, stats: FuzzStats): Promise<void> {
  const property = fc.asyncProperty(arb, async (req) => {
    if (server.exitCode() !== null) throw new Error(`the server exited (${server.exitCode()}):\n${server.output().slice(-2000)}`)
    let res: RawResponse
    try {
      res = await sendRaw(server.url, req)
    } catch (error) {
      throw new Error(`no answer: ${(error as Error).message}`)
    }
    stats.count(req, res)
    const problem = checkAnswer(req, res)
    if (problem) throw new Error(problem)
  })
  const details = await fc.check(property, { numRuns, seed })
  if (details.failed) {
    const req = details.counterexample?.[0]
    stats.failures.push({
      op: req?.op ?? '?',
      defect: req?.defect ?? '?',
      request: req ? describeRequest(req) : '(none)',
      error: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
    })
  }
}

/** A request in one readable line (long parts cut). */
export function describeRequest(req: GeneratedRequest): string {
  const body = req.body === undefined ? '' : typeof req.body === 'string' ? JSON.stringify(req.body.length > 300 ? `${req.body.slice(0, 300)}…(${req.body.length} chars)` : req.body) : `<${req.body.byteLength} bytes>`
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}…(${req.path.length} chars)` : req.path
  return `${req.method} ${path} ${JSON.stringify(req.headers)}${req.declaredLength !== undefined ? ` content-length: ${req.declaredLength}` : ''} ${body}`
}

/**
 * GETs every GET operation over real records: each path parameter takes each
 * known id of its kind (at most `perKind`), ipn, KiCad file and asset names.
 */
export async function walkGets(base: string, ops: Operation[], ids: Record<string, string[]>, ipns: string[], options: { perKind: number; headers?: Record<string, string> }): Promise<Array<{ path: string; res: RawResponse }>> {
  const out: Array<{ path: string; res: RawResponse }> = []
  for (const op of ops.filter((o) => o.method === 'GET')) {
    let paths = [op.template]
    for (const p of op.pathParams) {
      const prefix = /^\^(\w+)_\[/.exec(p.schema.pattern ?? '')?.[1]
      const values = prefix
        ? (ids[prefix] ?? [])
        : p.name === 'ipn'
          ? ipns
          : p.name === 'file'
            ? [...(ids.cmp ?? []).map((id) => `${id}.json`), 'Resistors.json', 'Capacitors.json']
            : Array.isArray(p.schema.enum)
              ? p.schema.enum
              : []
      const chosen = values.slice(0, options.perKind)
      paths = paths.flatMap((t) => chosen.map((v: string) => t.replace(`{${p.name}}`, encodeURIComponent(v))))
    }
    for (const path of paths) {
      const res = await sendRaw(base, { method: 'GET', path, headers: options.headers })
      out.push({ path, res })
      if (op.queryParams.some((q) => q.name === 'includeDeleted')) {
        const all = `${path}?includeDeleted=true`
        out.push({ path: all, res: await sendRaw(base, { method: 'GET', path: all, headers: options.headers }) })
      }
    }
  }
  return out
}

function _bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1)
}
