import { createPushRunner, createSandboxPool } from '@complib/connector-webhook'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { ROUTES } from '../src/routes'
import { buildOpenApiDocument } from '../src/routing/openapi'
import { useTestApi } from './harness'

// Dry runs (POST /api/connectors/:id/test) share a bounded pool (decision 0724): a burst of them
// gets some answers and some 429s with Retry-After, the server stays responsive meanwhile, and code
// that never stops is still cut by its CPU limit and gives its place back.

const api = useTestApi()

const LOOP = 'async function push() { for (;;) {} }'
/** Generous: a health answer on an idle machine takes a few ms; a starved event loop took seconds. */
const HEALTH_BOUND_MS = 750

/** An app over the harness's storage whose runner has a small pool, so the burst overflows it on any machine. */
function smallPoolApp() {
  const sandboxPool = createSandboxPool({ dryRuns: 2, queue: 2 })
  const runner = createPushRunner({ storage: api.storage, sandbox: { cpuTimeoutMs: 300 }, sandboxPool })
  const app = createApp({ storage: api.storage, runner, log: () => {} })
  const call = async (method: string, path: string) => {
    const res = await app.fetch(new Request(`http://127.0.0.1${path}`, { method }))
    const text = await res.text()
    return { status: res.status, headers: res.headers, type: res.headers.get('content-type') ?? '', body: text ? JSON.parse(text) : null }
  }
  return { sandboxPool, runner, call }
}

async function loopingConnector() {
  await api.ok('POST', '/api/components', { name: 'A' }, 201)
  const c = await api.ok('POST', '/api/connectors', { name: 'Loop', config: { url: 'http://127.0.0.1:9/hook' } }, 201)
  await api.ok('PUT', `/api/connectors/${c.id}/code`, { code: LOOP })
  return c.id as string
}

describe('dry runs share a bounded pool', () => {
  it('a burst beyond the pool and its queue: some 429 with Retry-After, the rest run; health answers promptly meanwhile', async () => {
    const id = await loopingConnector()
    const { sandboxPool, runner, call } = smallPoolApp()
    try {
      let bursting = true
      const healthTimes: number[] = []
      const health = (async () => {
        while (bursting) {
          const t0 = performance.now()
          expect((await call('GET', '/api/health')).status).toBe(200)
          healthTimes.push(performance.now() - t0)
          await new Promise((r) => setTimeout(r, 50))
        }
      })()
      const answers = await Promise.all(Array.from({ length: 24 }, () => call('POST', `/api/connectors/${id}/test`)))
      bursting = false
      await health

      const refused = answers.filter((a) => a.status === 429)
      const ran = answers.filter((a) => a.status === 200)
      expect(refused.length + ran.length).toBe(answers.length)
      expect(refused.length).toBeGreaterThanOrEqual(1)
      expect(ran.length).toBeGreaterThanOrEqual(4)
      for (const r of refused) {
        expect(r.type).toBe('application/problem+json')
        expect(r.body).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', detail: expect.stringContaining('too many dry runs at once') })
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      }
      // Each one that ran was cut by its CPU limit.
      for (const r of ran) expect(r.body.error).toMatch(/CPU time limit|did not finish/)
      expect(healthTimes.length).toBeGreaterThan(0)
      expect(Math.max(...healthTimes), `health answered in ${healthTimes.map((t) => Math.round(t)).join(', ')} ms`).toBeLessThan(HEALTH_BOUND_MS)

      // Every place was given back: the next dry run runs, and a well-behaved one succeeds.
      expect(sandboxPool.stats()).toMatchObject({ dryRunsRunning: 0, dryRunsQueued: 0, memoryMbInUse: 0 })
      await api.ok('PUT', `/api/connectors/${id}/code`, { code: null })
      const after = await call('POST', `/api/connectors/${id}/test`)
      expect(after.status).toBe(200)
      expect(after.body).toMatchObject({ error: null, sent: [{ url: 'http://127.0.0.1:9/hook', entities: 1 }] })
    } finally {
      await runner.close()
    }
  })

  it('the default pool runs a dry run of a looping connector and answers 200 with its CPU-limit error', async () => {
    const id = await loopingConnector()
    const res = await api.call('POST', `/api/connectors/${id}/test`)
    expect(res.status, res.text).toBe(200)
    expect(res.body.error).toMatch(/CPU time limit|did not finish/)
  })

  it('the OpenAPI document lists the 429 of a dry run', () => {
    const doc = buildOpenApiDocument(ROUTES) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
    expect(Object.keys(doc.paths['/api/connectors/{id}/test']!.post!.responses)).toContain('429')
  })
})
