import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../../connector-webhook/test/receiver'
import { runCli } from './cli-process'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const serve = async (data: string, port = 0) => {
  const { child, done } = runCli(['serve', '--port', String(port), '--data', data], {}, /listening on (http:\/\/\S+)/)
  const { match } = await done
  if (!match) throw new Error('server did not start')
  return { child, url: match[1]! }
}
const api = async (url: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return res.json() as Promise<any>
}

describe('push crash', () => {
  it('resumes after kill -9: every live id delivered, no acknowledged batch sent again, resent batches keep id and bytes', { timeout: 120_000 }, async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-push-crash-'))
    dirs.push(data)
    // Slow answers so the kill lands mid-run.
    const receiver = await startReceiver(() => ({ status: 202, delayMs: 120 }))
    try {
      let server = await serve(data)
      const items = Array.from({ length: 2500 }, (_, i) => ({ name: `part ${i}`, ipn: `X-${i}` }))
      for (let i = 0; i < items.length; i += 1000) await api(server.url, 'POST', '/api/bulk/components', { items: items.slice(i, i + 1000) })
      const connector = await api(server.url, 'POST', '/api/connectors', { name: 'hook', config: { url: receiver.url, concurrency: 1, requestsPerSecond: 1000 } })
      const run = await api(server.url, 'POST', `/api/connectors/${connector.id}/push`)
      expect(run.batchesTotal).toBe(10)
      // Wait for some batches to be recorded as acknowledged, then crash.
      let acknowledged: string[] = []
      for (let i = 0; i < 100 && acknowledged.length < 3; i++) {
        await new Promise((r) => setTimeout(r, 50))
        const detail = await api(server.url, 'GET', `/api/connector-runs/${run.id}`)
        acknowledged = detail.batches.filter((b: { status: string }) => b.status === 'succeeded').map((b: { webhookId: string }) => b.webhookId)
      }
      expect(acknowledged.length).toBeGreaterThanOrEqual(3)
      server.child.kill('SIGKILL')
      await new Promise((r) => server.child.on('exit', r))
      expect(receiver.received.length).toBeLessThan(10)

      server = await serve(data)
      let final: any
      for (let i = 0; i < 200; i++) {
        await new Promise((r) => setTimeout(r, 100))
        final = await api(server.url, 'GET', `/api/connector-runs/${run.id}`)
        if (final.status !== 'running' && final.status !== 'queued') break
      }
      const exited = new Promise((r) => server.child.on('exit', r))
      server.child.kill('SIGTERM')
      await exited
      expect(final.status).toBe('succeeded')
      expect(final.resumedAt).not.toBeNull()

      const byId = new Map<string, string[]>()
      for (const r of receiver.received) {
        const id = String(r.headers['webhook-id'])
        byId.set(id, [...(byId.get(id) ?? []), r.raw.toString()])
      }
      for (const id of acknowledged) expect(byId.get(id), `acknowledged ${id} sent again`).toHaveLength(1)
      for (const bodies of byId.values()) expect(new Set(bodies).size, 'a resent batch changed its bytes').toBe(1)
      const delivered = new Set([...byId.values()].flatMap((b) => (JSON.parse(b[0]!) as { entities: Array<{ ipn: string }> }).entities.map((e) => e.ipn)))
      expect(delivered.size).toBe(2500)
    } finally {
      await receiver.close()
    }
  })
})
