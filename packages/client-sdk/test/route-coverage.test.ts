import { createApp } from '@complib/api-server'
import { createSqliteStorage } from '@complib/core/sqlite'
import { describe, expect, it } from 'vitest'
import { createClient } from '../src/index'
import { fakeFetch } from './fake-fetch'

/**
 * The routes the typed client leaves to `client.request` (README "Scripting"
 * and the package README name the same ones): the OpenAPI document and its
 * reference page; KiCad's HTTP library and remote symbol provider, which KiCad
 * itself reads; and the datasheet links KiCad opens in a browser.
 */
const LEFT_TO_REQUEST = [
  'GET /api/docs',
  'GET /api/docs/ui',
  'GET /api/docs/ui/{asset}',
  'GET /api/kicad/v1/',
  'GET /api/kicad/v1/categories.json',
  'GET /api/kicad/v1/parts/category/{file}',
  'GET /api/kicad/v1/parts/{file}',
  'GET /api/kicad-remote/.well-known/kicad-remote-provider',
  'GET /api/kicad-remote/v1/panel',
  'GET /api/kicad-remote/v1/parts/{part_id}',
  'GET /api/kicad-remote/v1/assets/symbols/{id}/{capability}',
  'GET /api/kicad-remote/v1/assets/footprints/{id}/{capability}',
  'GET /api/attachments/{id}/datasheet/{capability}',
]

describe('route coverage of the typed client', () => {
  it('reaches every operation of /api/docs except the ones left to client.request', async () => {
    const storage = await createSqliteStorage()
    const doc = (await (await createApp({ storage }).fetch(new Request('http://x/api/docs'))).json()) as { paths: Record<string, Record<string, unknown>> }
    await storage.close()
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))

    // Every method of every resource, called with placeholder arguments against a fake server.
    const { fetch, requests } = fakeFetch((req) =>
      req.method === 'GET' && /connector-runs/.test(req.url) ? Response.json({ status: 'succeeded', batches: [] }) : Response.json([], { headers: { 'x-total-count': '0' } }),
    )
    const client = createClient({ baseUrl: 'http://x', fetch, retries: 0 })
    const calls: Array<Promise<unknown>> = []
    const call = (fn: (...args: unknown[]) => unknown) => {
      const out = fn('a1', 'a2', 3)
      calls.push(Symbol.asyncIterator in Object(out) ? _drain(out as AsyncIterable<unknown>) : Promise.resolve(out).catch(() => {}))
    }
    for (const [name, member] of Object.entries(client)) {
      if (name === 'request' || name === 'requestRaw') continue
      if (typeof member === 'function') call(member as never)
      else for (const fn of Object.values(member)) call(fn as never)
    }
    await Promise.all(calls)

    const templates = operations
      .map((op) => {
        const [method, path] = op.split(' ') as [string, string]
        return { op, method, regex: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`), statics: path.split('/').filter((s) => !s.includes('{')).length }
      })
      .sort((a, b) => b.statics - a.statics)
    const reached = new Set(requests.map((r) => templates.find((t) => t.method === r.method && t.regex.test(r.url.pathname))?.op ?? `unmatched ${r.method} ${r.url.pathname}`))
    expect([...reached].filter((op) => op.startsWith('unmatched'))).toEqual([])
    expect(operations.filter((op) => !reached.has(op)).sort()).toEqual([...LEFT_TO_REQUEST].sort())
    expect(reached.size).toBe(operations.length - LEFT_TO_REQUEST.length)
  })
})

async function _drain(items: AsyncIterable<unknown>) {
  for await (const _ of items) void _
}
