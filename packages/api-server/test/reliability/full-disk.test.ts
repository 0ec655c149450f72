import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killHard } from '../cli-process'
import { callJson, killServers, serveOn } from './json-api'
import type { ServeProcess } from './server-process'

// A real server whose data folder is on a real, tiny file system (a 16 MiB
// tmpfs) that fills up: writes answer 507 problem+json and change nothing,
// reads go on, nothing acknowledged is lost, and writing works again once
// space returns. Mounting needs root; elsewhere the test is skipped, saying why.

const root = mkdtempSync(join(tmpdir(), 'complib-full-disk-'))
const mnt = join(root, 'mnt')
const unavailable = _mountTmpfs(mnt, '16m')
afterAll(async () => {
  await killServers()
  if (!unavailable) execFileSync('umount', ['-l', mnt])
  rmSync(root, { recursive: true, force: true })
})

const part = (ipn: string) => ({ name: `part ${ipn}`, ipn, tags: ['disk'], parameters: [{ type: 'Resistance', value: '10k' }], mpns: [{ manufacturer: 'Yageo', partNumber: `RC-${ipn}` }] })

const send = (server: ServeProcess, method: string, path: string, body?: unknown, contentType?: string) => callJson(server.url, method, path, body, contentType)

describe.skipIf(unavailable)(`a full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('answers 507 problem+json to writes, keeps serving reads, stops cleanly, loses nothing acknowledged, and writes again once space returns', { timeout: 60_000 }, async () => {
    const dataDir = join(mnt, 'data')
    let server = await serveOn(dataDir)
    const acked = new Map<string, string>() // ipn -> id
    const refused: string[] = []
    for (let i = 0; i < 20; i++) acked.set(`D-${i}`, (await send(server, 'POST', '/api/components', part(`D-${i}`))).body.id)

    // Fill the file system to the last byte.
    const filler = join(mnt, 'filler')
    _fill(filler)

    // A small record may still fit in the journal's last page; after that, every write is refused.
    let n = 20
    for (let tries = 0; refused.length === 0 && tries < 50; tries++) {
      const ipn = `D-${n++}`
      const res = await send(server, 'POST', '/api/components', part(ipn))
      if (res.status === 201) acked.set(ipn, res.body.id)
      else refused.push(ipn)
    }
    expect(refused).toHaveLength(1)
    const writes: Array<[string, string, unknown, string?]> = [
      ['POST', '/api/components', part(`D-${n}`)],
      ['PATCH', `/api/components/${acked.get('D-0')}`, { description: 'not saved' }],
      ['POST', '/api/bulk/components', { items: [part(`D-${n + 1}`), part(`D-${n + 2}`)] }],
      ['PATCH', '/api/bulk/components', { items: [{ id: acked.get('D-1'), patch: { description: 'not saved' } }] }],
      ['DELETE', `/api/components/${acked.get('D-2')}`, undefined],
      ['POST', '/api/attachments?name=datasheet.bin', new Uint8Array(256 * 1024).fill(7), 'application/octet-stream'],
    ]
    refused.push(`D-${n}`, `D-${n + 1}`, `D-${n + 2}`)
    for (const [method, path, body, type] of writes) {
      const res = await send(server, method, path, body, type)
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(507)
      expect(res.type).toBe('application/problem+json')
      expect(res.body).toMatchObject({ status: 507, code: 'INSUFFICIENT_STORAGE', title: 'Insufficient storage', detail: expect.stringMatching(/full/) })
    }

    // Reads go on, showing exactly what was acknowledged.
    const check = async (s: ServeProcess) => {
      const all = (await send(s, 'GET', '/api/components?limit=1000')).body as Array<{ id: string; ipn: string; description: string | null }>
      expect(new Map(all.map((c) => [c.ipn, c.id]))).toEqual(acked)
      expect(all.filter((c) => c.description === 'not saved')).toEqual([])
      expect((await send(s, 'GET', '/api/attachments')).body).toEqual([])
    }
    await check(server)
    expect(server.exitCode()).toBeNull()

    // A stop while the disk is full is still a clean stop: the write-ahead log keeps every write
    // (a checkpoint that does not fit leaves it for the next start), and the server starts again on the full disk.
    expect(await server.stop({ keepData: true })).toBe(0)
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.tmp') || f.endsWith('.converting'))).toEqual([])
    server = await serveOn(dataDir)
    await check(server)

    // Space returns: writes work again, without a restart.
    rmSync(filler)
    const after = await send(server, 'POST', '/api/components', part('D-after'))
    expect(after.status).toBe(201)
    acked.set('D-after', after.body.id)
    expect((await send(server, 'POST', '/api/attachments?name=datasheet.bin', new Uint8Array(1024).fill(7), 'application/octet-stream')).status).toBe(201)

    // And all of it survives a kill -9.
    await killHard(server.child)
    server = await serveOn(dataDir)
    try {
      const all = (await send(server, 'GET', '/api/components?limit=1000')).body as Array<{ ipn: string }>
      expect(new Set(all.map((c) => c.ipn))).toEqual(new Set(acked.keys()))
      for (const ipn of refused) expect(all.some((c) => c.ipn === ipn)).toBe(false)
      expect((await send(server, 'GET', '/api/attachments')).body).toHaveLength(1)
    } finally {
      await server.stop({ keepData: true })
    }
  })
})

/** Mounts a tmpfs of `size` at `dir`; returns why it could not (the test is then skipped), or null. */
function _mountTmpfs(dir: string, size: string): string | null {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux'
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  try {
    mkdirSync(dir, { recursive: true })
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    return null
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`
  }
}

/** Writes `path` until the file system refuses another byte. */
function _fill(path: string): void {
  const fd = openSync(path, 'w')
  try {
    for (const chunk of [1024 * 1024, 4096, 1]) {
      const bytes = Buffer.alloc(chunk)
      try {
        for (;;) writeSync(fd, bytes)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      }
    }
  } finally {
    closeSync(fd)
  }
}
