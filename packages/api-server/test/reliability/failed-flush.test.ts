import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { callJson } from './json-api'
import { buildPreloadShim } from './preload-shim'
import { startServe, type ServeProcess } from './server-process'

// A real `complib serve` whose fdatasync/fsync fails once with EIO, through an
// LD_PRELOAD shim (fixtures/fail-sync.c) compiled here: after the failure the
// server refuses every write with a 503 that says why and what to do, keeps
// serving reads, says so once in its log, and a restart writes again with
// nothing acknowledged lost (decision 0207). Needs Linux and a C compiler
// (the native build of better-sqlite3 needs one too); elsewhere it is skipped, saying why.

const root = mkdtempSync(join(tmpdir(), 'complib-failed-flush-'))
const built = buildPreloadShim('fail-sync', root)
const unavailable = 'unavailable' in built ? built.unavailable : null
const shim = 'shim' in built ? built.shim : ''
const servers: ServeProcess[] = []
afterAll(async () => {
  for (const s of servers) await s.stop({ keepData: true })
  rmSync(root, { recursive: true, force: true })
})

const part = (ipn: string) => ({ name: `part ${ipn}`, ipn, tags: ['flush'], parameters: [{ type: 'Resistance', value: '10k' }] })

/** A server on `dataDir` whose next sync of the file ending with `suffix` fails once `trigger` exists. */
async function serve(dataDir: string, suffix?: string, trigger?: string): Promise<ServeProcess> {
  const env: Record<string, string> = suffix ? { LD_PRELOAD: shim, COMPLIB_FAIL_SYNC_SUFFIX: suffix, COMPLIB_FAIL_SYNC_TRIGGER: trigger! } : {}
  const server = await startServe({ dataDir, env })
  servers.push(server)
  return server
}

describe.skipIf(unavailable)(`a failed flush of the database to the disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('stops writes with a 503 saying why and what to do, keeps reads, and a restart writes again with nothing acknowledged lost', { timeout: 60_000 }, async () => {
    const dataDir = join(root, 'wal')
    const trigger = join(root, 'fail-wal')
    let server = await serve(dataDir, '/complib.db-wal', trigger)
    const acked: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await callJson(server.url, 'POST', '/api/components', part(`F-${i}`))
      expect(res.status).toBe(201)
      acked.push(res.body.id)
    }

    writeFileSync(trigger, '')
    const failed = await callJson(server.url, 'POST', '/api/components', part('F-lost'))
    expect(failed.status).toBe(503)
    expect(failed.type).toContain('application/problem+json')
    expect(failed.body.detail).toContain('may be lost')

    // The shim fails one sync only: the disk "works" again, and the server still refuses.
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/components', part('F-after')],
      ['PATCH', `/api/components/${acked[0]}`, { description: 'not saved' }],
      ['POST', '/api/bulk/components', { items: [part('F-bulk-1'), part('F-bulk-2')] }],
      ['DELETE', `/api/components/${acked[1]}`, undefined],
      ['POST', '/api/tags', { name: 'not saved' }],
    ]
    for (const [method, path, body] of writes) {
      const res = await callJson(server.url, method, path, body)
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(503)
      // A bulk write names the item it was at.
      expect(res.body.detail).toMatch(/^(items\[0\]: )?writes are stopped since \S+: flushing the write-ahead log to the disk failed \(EIO.*restart the server/)
    }

    // Reads go on, and the health check says what no longer works.
    const health = await callJson(server.url, 'GET', '/api/health')
    expect(health.status).toBe(200)
    expect(health.body.writesStopped).toMatch(/^writes are stopped since/)
    for (const id of acked) expect((await callJson(server.url, 'GET', `/api/components/${id}`)).body.description).toBeNull()
    expect(server.output().match(/WRITES STOPPED/g)).toHaveLength(1)

    expect(await server.stop({ keepData: true })).toBe(0)
    server = await serve(dataDir)
    expect((await callJson(server.url, 'GET', '/api/health')).body.writesStopped).toBeUndefined()
    expect((await callJson(server.url, 'POST', '/api/components', part('F-restarted'))).status).toBe(201)
    for (const id of acked) expect((await callJson(server.url, 'GET', `/api/components/${id}`)).status).toBe(200)
    await server.stop({ keepData: true })
  })

  it('stops writes when a checkpoint fails to flush the database file', { timeout: 60_000 }, async () => {
    const dataDir = join(root, 'checkpoint')
    const trigger = join(root, 'fail-checkpoint')
    const server = await serve(dataDir, '/complib.db', trigger)
    writeFileSync(trigger, '')
    // A checkpoint runs every 64 commits (a create may make more than one); the first one's sync of complib.db fails.
    let refused: { status: number; body: any } | null = null
    let acked = 0
    for (let i = 0; i < 400 && !refused; i++) {
      const res = await callJson(server.url, 'POST', '/api/components', part(`C-${i}`))
      if (res.status === 201) acked++
      else refused = res
    }
    expect(acked).toBeGreaterThan(10)
    expect(refused?.status).toBe(503)
    expect(refused?.body.detail).toMatch(/^writes are stopped since \S+: a checkpoint of the write-ahead log into the database file failed/)
    expect((await callJson(server.url, 'GET', '/api/components?limit=500')).body).toHaveLength(acked)
    await server.stop({ keepData: true })
  })
})
