import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { callJson, killServers, serveOn } from './json-api'
import { FULL } from './server-process'

// Attachments are content-addressed, so deleting A while
// B uploads the same bytes could count B's record before it existed and remove
// the file B had just been acknowledged for. A real `complib serve` over HTTP:
// each round uploads A, then deletes A while uploading the same bytes as B;
// every B that got its 201 must be downloadable, also after a restart.

const ROUNDS = FULL ? 1000 : 100
/** Rounds in flight at once, each on its own bytes. */
const CONCURRENCY = 8
const dirs: string[] = []
afterAll(async () => {
  await killServers()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('attachment content under concurrent writes', () => {
  it('an upload racing the delete of the same bytes keeps its content (every acknowledged upload downloadable, also after a restart)', { timeout: FULL ? 600_000 : 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'complib-attachment-race-'))
    dirs.push(dataDir)
    let server = await serveOn(dataDir)
    const acked = new Map<string, string>() // attachment id -> the text uploaded
    let next = 0
    const worker = async () => {
      for (let round = next++; round < ROUNDS; round = next++) {
        const text = `round ${round} ${'x'.repeat(round % 97)}`
        const bytes = new TextEncoder().encode(text)
        const a = await callJson(server.url, 'POST', `/api/attachments?name=a-${round}.txt`, bytes, 'text/plain')
        expect(a.status, JSON.stringify(a.body)).toBe(201)
        // Alternate which request leaves first, and stagger by up to 2 ms, to cover both orders of the race.
        const lag = round % 5
        const del = _after(round % 2 ? lag : 0, () => callJson(server.url, 'DELETE', `/api/attachments/${a.body.id}`))
        const up = _after(round % 2 ? 0 : lag, () => callJson(server.url, 'POST', `/api/attachments?name=b-${round}.txt`, bytes, 'text/plain'))
        const [deleted, uploaded] = await Promise.all([del, up])
        expect(deleted.status).toBe(204)
        expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
        acked.set(uploaded.body.id, text)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    expect(acked.size).toBe(ROUNDS)

    const lost = async () => {
      const missing: string[] = []
      for (const [id, text] of acked) {
        const res = await fetch(`${server.url}/api/attachments/${id}/content`)
        const body = await res.text()
        if (res.status !== 200 || body !== text) missing.push(`${id}: ${res.status}`)
      }
      return missing
    }
    expect(await lost()).toEqual([])
    await server.stop({ keepData: true })
    server = await serveOn(dataDir)
    expect(await lost()).toEqual([])
    await server.stop({ keepData: true })
  })
})

async function _after<T>(ms: number, send: () => Promise<T>): Promise<T> {
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms))
  return send()
}
