import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const create = async (body: Record<string, unknown>) => {
  const res = await api.call('POST', '/api/components', { body })
  expect(res.status, res.text).toBe(201)
  return res.body
}
const MISSING = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

describe('POST /api/components', () => {
  it('creates a component with 201, Location and ETag', async () => {
    const res = await api.call('POST', '/api/components', {
      body: { name: 'R 10k 0603', description: 'thick film', tags: ['passive'], parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }], mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] },
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'R 10k 0603', status: 'active', ipn: 'CMP-00001', tags: ['passive'], version: 1, deletedAt: null })
    expect(res.headers.get('location')).toBe(`/api/components/${res.body.id}`)
    expect(res.headers.get('etag')).toBe('"1"')
  })

  it('rejects a body without a name, naming the field', async () => {
    const res = await api.call('POST', '/api/components', { body: { description: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'body.name' }))
  })

  it('rejects an unknown field rather than dropping it', async () => {
    const res = await api.call('POST', '/api/components', { body: { name: 'x', descripton: 'typo' } })
    expect(res.status).toBe(400)
    expect(res.body.detail).toContain('descripton')
  })

  it('rejects malformed JSON with a 400 naming the body', async () => {
    const res = await api.call('POST', '/api/components', { body: '{"name": ' })
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toBe('body')
  })

  it('rejects a lone surrogate or bytes that are not UTF-8 with a 400 naming where, and creates nothing (regression: stored as U+FFFD, not as sent)', async () => {
    const json = { 'content-type': 'application/json' }
    const lone = await api.call('POST', '/api/components', { rawBody: '{"name":"R \\ud800 10k","tags":["ok"]}', headers: json })
    expect(lone.status).toBe(400)
    expect(lone.body.errors[0].path).toBe('body.name')
    const nested = await api.call('POST', '/api/components', { rawBody: '{"name":"R","parameters":[{"type":"x","value":"\\udc00"}]}', headers: json })
    expect(nested.body.errors[0].path).toBe('body.parameters.0.value')
    const bytes = await api.call('POST', '/api/components', { rawBody: new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), headers: json })
    expect(bytes.status).toBe(400)
    expect(bytes.body.detail).toMatch(/not valid UTF-8/)
    // A well-formed pair (an emoji) is a character and is kept as sent.
    const emoji = await api.call('POST', '/api/components', { body: { name: 'R 10k \u{1F50C}' } })
    expect(emoji.status).toBe(201)
    expect(emoji.body.name).toBe('R 10k \u{1F50C}')
    expect((await api.call('GET', '/api/components')).body).toHaveLength(1)
  })

  it('rejects a body nested deeper than 64 levels with a 400 naming where, before any route walks it (a connector patch 10,000 deep overflowed the stack: 500)', async () => {
    const connector = await api.ok('POST', '/api/connectors', { type: 'webhook', name: 'deep', config: { url: 'http://127.0.0.1:9/hooks' } }, 201)
    const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
    const res = await api.call('PATCH', `/api/connectors/${connector.id}`, { rawBody: `{"config":{"url":"http://127.0.0.1:9/hooks","extra":${deep(10_000)}}}`, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body.detail).toMatch(/^body\.config\.extra(\.a)+: is nested deeper than 64 levels$/)
    // 64 levels in all are fine (and judged by the route's schema).
    const ok = await api.call('POST', '/api/components', { rawBody: `{"name":"R","extra":${deep(62)}}`, headers: { 'content-type': 'application/json' } })
    expect(ok.status).toBe(400)
    expect(ok.body.detail).not.toMatch(/nested/)
    expect((await api.storage.connectors.get(connector.id)).version).toBe(1)
  })

  it('rejects a duplicate ipn with 409 and creates nothing', async () => {
    await create({ name: 'A', ipn: 'RES-1' })
    const res = await api.call('POST', '/api/components', { body: { name: 'B', ipn: 'res-1' } })
    expect(res.status).toBe(409)
    expect((await api.call('GET', '/api/components')).body).toHaveLength(1)
  })

  it('answers 413 for a body over the limit', async () => {
    const res = await api.call('POST', '/api/components', { body: { name: 'x', description: 'y'.repeat(2 * 1024 * 1024) } })
    expect(res.status).toBe(413)
  })
})

describe('GET /api/components', () => {
  it('returns a JSON array, with X-Total-Count and a Link to the next page', async () => {
    for (let i = 0; i < 5; i++) await create({ name: `part ${i}` })
    const first = await api.call('GET', '/api/components?limit=2')
    expect(first.body).toHaveLength(2)
    expect(first.headers.get('x-total-count')).toBe('5')
    const link = first.headers.get('link')!
    expect(link).toMatch(/^<\/api\/components\?limit=2&cursor=[^>]+>; rel="next"$/)
    const seen = first.body.map((c: { id: string }) => c.id)
    let next: string | null = link.slice(1, link.indexOf('>'))
    while (next) {
      const page: { body: { id: string }[]; headers: Headers } = await api.call('GET', next)
      seen.push(...page.body.map((c: { id: string }) => c.id))
      const l: string | null = page.headers.get('link')
      next = l ? l.slice(1, l.indexOf('>')) : null
    }
    expect(new Set(seen).size).toBe(5)
  })

  it('coerces a numeric limit from text and rejects one out of range', async () => {
    expect((await api.call('GET', '/api/components?limit=7')).status).toBe(200)
    const res = await api.call('GET', '/api/components?limit=0')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toBe('query.limit')
    expect((await api.call('GET', '/api/components?limit=100001')).status).toBe(400)
    expect((await api.call('GET', '/api/components?limit=ten')).status).toBe(400)
  })

  it('rejects an unknown query parameter', async () => {
    const res = await api.call('GET', '/api/components?limt=5')
    expect(res.status).toBe(400)
    expect(res.body.detail).toContain('limt')
  })

  it('rejects a cursor it did not issue', async () => {
    const res = await api.call('GET', '/api/components?cursor=garbage')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toBe('query.cursor')
  })

  it('filters by status and leaves deleted components out unless asked', async () => {
    const a = await create({ name: 'A', status: 'draft' })
    const b = await create({ name: 'B' })
    await api.call('DELETE', `/api/components/${b.id}`)
    expect((await api.call('GET', '/api/components?status=draft')).body.map((c: { id: string }) => c.id)).toEqual([a.id])
    expect((await api.call('GET', '/api/components')).body).toHaveLength(1)
    expect((await api.call('GET', '/api/components?includeDeleted=true')).body).toHaveLength(2)
  })
})

describe('GET /api/components/{id}', () => {
  it('returns the component with its ETag', async () => {
    const c = await create({ name: 'A' })
    const res = await api.call('GET', `/api/components/${c.id}`)
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(c.id)
    expect(res.headers.get('etag')).toBe('"1"')
  })

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await api.call('GET', `/api/components/${MISSING}`)).status).toBe(404)
    const bad = await api.call('GET', '/api/components/not-an-id')
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].path).toBe('path.id')
  })
})

describe('PATCH /api/components/{id}', () => {
  it('changes the description, also to null, and bumps the version', async () => {
    const c = await create({ name: 'A', description: 'old' })
    const res = await api.call('PATCH', `/api/components/${c.id}`, { body: { description: 'new' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ description: 'new', version: 2 })
    const cleared = await api.call('PATCH', `/api/components/${c.id}`, { body: { description: null } })
    expect(cleared.body.description).toBeNull()
  })

  it('answers 412 when If-Match names an older version, and changes nothing', async () => {
    const c = await create({ name: 'A' })
    await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'B' } })
    const res = await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'C' }, headers: { 'if-match': '"1"' } })
    expect(res.status).toBe(412)
    expect((await api.call('GET', `/api/components/${c.id}`)).body.name).toBe('B')
    expect((await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'C' }, headers: { 'if-match': '"2"' } })).status).toBe(200)
  })

  it('answers 409 for a status change the lifecycle forbids', async () => {
    const c = await create({ name: 'A', status: 'draft' })
    const res = await api.call('PATCH', `/api/components/${c.id}`, { body: { status: 'obsolete' } })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('INVALID_TRANSITION')
  })

  it('rejects a malformed If-Match header', async () => {
    const c = await create({ name: 'A' })
    expect((await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'B' }, headers: { 'if-match': 'yesterday' } })).status).toBe(400)
  })

  it('answers 404 for an unknown component', async () => {
    expect((await api.call('PATCH', `/api/components/${MISSING}`, { body: { name: 'B' } })).status).toBe(404)
  })
})

describe('DELETE, restore and purge', () => {
  it('soft-deletes with 204 and restores with 200', async () => {
    const c = await create({ name: 'A' })
    expect((await api.call('DELETE', `/api/components/${c.id}`)).status).toBe(204)
    expect((await api.call('GET', `/api/components/${c.id}`)).status).toBe(404)
    expect((await api.call('GET', `/api/components/${c.id}?includeDeleted=true`)).body.deletedAt).not.toBeNull()
    const restored = await api.call('POST', `/api/components/${c.id}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.body.deletedAt).toBeNull()
  })

  it('refuses to restore when the ipn was taken meanwhile', async () => {
    const c = await create({ name: 'A', ipn: 'X-1' })
    await api.call('DELETE', `/api/components/${c.id}`)
    await create({ name: 'B', ipn: 'X-1' })
    expect((await api.call('POST', `/api/components/${c.id}/restore`)).status).toBe(409)
  })

  it('deleting twice answers 404', async () => {
    const c = await create({ name: 'A' })
    await api.call('DELETE', `/api/components/${c.id}`)
    expect((await api.call('DELETE', `/api/components/${c.id}`)).status).toBe(404)
  })

  it('purges for good and reports it in the change feed', async () => {
    const c = await create({ name: 'A' })
    expect((await api.call('DELETE', `/api/components/${c.id}/purge`)).status).toBe(204)
    expect((await api.call('GET', `/api/components/${c.id}?includeDeleted=true`)).status).toBe(404)
    const feed = await api.call('GET', '/api/components/changes?since=0')
    expect(feed.body.changes.map((e: { op: string }) => e.op)).toEqual(['create', 'purge'])
    expect((await api.call('DELETE', `/api/components/${MISSING}/purge`)).status).toBe(404)
  })
})

describe('duplicate, history, by-ipn, next-ipn, changes', () => {
  it('duplicates as a draft with a new ipn', async () => {
    const c = await create({ name: 'A', tags: ['t'] })
    const res = await api.call('POST', `/api/components/${c.id}/duplicate`, { body: {} })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'A (copy)', status: 'draft', tags: ['t'] })
    expect(res.body.ipn).not.toBe(c.ipn)
    expect((await api.call('POST', `/api/components/${MISSING}/duplicate`, { body: {} })).status).toBe(404)
  })

  it('lists history newest first', async () => {
    const c = await create({ name: 'A' })
    await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'B' } })
    const res = await api.call('GET', `/api/components/${c.id}/history`)
    expect(res.body.map((e: { version: number }) => e.version)).toEqual([2, 1])
    expect(res.body[0].snapshot.name).toBe('B')
    expect((await api.call('GET', `/api/components/${MISSING}/history`)).status).toBe(404)
  })

  it('finds a component by ipn, case-insensitively', async () => {
    const c = await create({ name: 'A', ipn: 'RES-0042' })
    expect((await api.call('GET', '/api/components/by-ipn/res-0042')).body.id).toBe(c.id)
    expect((await api.call('GET', '/api/components/by-ipn/NOPE-1')).status).toBe(404)
    expect((await api.call('GET', '/api/components/by-ipn/has%20space')).status).toBe(400)
  })

  it('proposes the next ipn for a prefix', async () => {
    await create({ name: 'A', ipn: 'RES-00041' })
    expect((await api.call('GET', '/api/components/next-ipn?prefix=RES-')).body.ipn).toBe('RES-00042')
    expect((await api.call('GET', '/api/components/next-ipn')).body.ipn).toBe('CMP-00001')
    expect((await api.call('GET', '/api/components/next-ipn?prefix=a%20b')).status).toBe(400)
  })

  it('feeds changes since a sequence number', async () => {
    const c = await create({ name: 'A' })
    const first = await api.call('GET', '/api/components/changes')
    expect(first.body.changes).toHaveLength(1)
    await api.call('PATCH', `/api/components/${c.id}`, { body: { name: 'B' } })
    const next = await api.call('GET', `/api/components/changes?since=${first.body.lastSeq}`)
    expect(next.body.changes).toEqual([expect.objectContaining({ componentId: c.id, op: 'update', version: 2 })])
    expect((await api.call('GET', '/api/components/changes?since=-1')).status).toBe(400)
  })
})
