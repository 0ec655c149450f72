import { describe, expect, it } from 'vitest'
import { component, fakeFetch, problem } from '../test/fake-fetch'
import { createClient } from './client'
import { ComplibApiError, ComplibNetworkError, ConflictError, NotFoundError, PreconditionFailedError, ValidationError } from './errors'

const json = (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

describe('createClient', () => {
  it('calls /api under the base URL with the api key as a bearer token', async () => {
    const { fetch, requests } = fakeFetch(() => json({ status: 'ok', version: '1.0.0-beta.4', storage: 'sqlite', uptimeSeconds: 1 }))
    const client = createClient({ baseUrl: 'http://127.0.0.1:4000/', apiKey: 'k', fetch })
    expect((await client.health()).version).toBe('1.0.0-beta.4')
    expect(requests[0]!.url.href).toBe('http://127.0.0.1:4000/api/health')
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer k')
  })

  it('sends a token as a bearer token, in place of the api key when both are given', async () => {
    const { fetch, requests } = fakeFetch(() => json({ status: 'ok' }))
    await createClient({ baseUrl: 'http://x', token: 'clt_abc', fetch }).health()
    await createClient({ baseUrl: 'http://x', token: 'clt_abc', apiKey: 'k', fetch }).health()
    await createClient({ baseUrl: 'http://x', fetch }).health()
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer clt_abc', 'Bearer clt_abc', null])
  })

  it('sends a list query as text: arrays repeat the key, booleans are true/false, undefined is left out', async () => {
    const { fetch, requests } = fakeFetch(() => json([component(1)], { 'x-total-count': '7', link: '</api/components?limit=1&cursor=c2>; rel="next"' }))
    const client = createClient({ baseUrl: 'http://x', fetch })
    const page = await client.components.list({ limit: 1, status: ['active', 'nrnd'], includeDeleted: true, q: undefined })
    expect(requests[0]!.url.search).toBe('?limit=1&status=active&status=nrnd&includeDeleted=true')
    expect(page).toMatchObject({ total: 7, nextCursor: 'c2' })
    expect(page.items[0]!.ipn).toBe('CMP-00001')
  })

  it('encodes path parameters', async () => {
    const { fetch, requests } = fakeFetch(() => json(component(1)))
    await createClient({ baseUrl: 'http://x', fetch }).components.getByIpn('A B#1')
    expect(requests[0]!.url.pathname).toBe('/api/components/by-ipn/A%20B%231')
  })
})

describe('iterate', () => {
  it('follows the cursor of the Link header until the last page, keeping the filters', async () => {
    const pages: Record<string, { items: number[]; next?: string }> = { '': { items: [1, 2], next: 'b' }, b: { items: [3, 4], next: 'c' }, c: { items: [5] } }
    const { fetch, requests } = fakeFetch((req) => {
      const page = pages[new URL(req.url).searchParams.get('cursor') ?? '']!
      return json(page.items.map((n) => component(n)), { 'x-total-count': '5', ...(page.next ? { link: `</api/components?cursor=${page.next}>; rel="next"` } : {}) })
    })
    const seen: string[] = []
    for await (const c of createClient({ baseUrl: 'http://x', fetch }).components.iterate({ tag: 'smd', limit: 2 })) seen.push(c.name)
    expect(seen).toEqual(['Part 1', 'Part 2', 'Part 3', 'Part 4', 'Part 5'])
    expect(requests.map((r) => r.url.search)).toEqual(['?limit=2&tag=smd', '?limit=2&tag=smd&cursor=b', '?limit=2&tag=smd&cursor=c'])
  })

  it('stops with an error when the server hands back a cursor it already gave', async () => {
    const { fetch } = fakeFetch(() => json([component(1)], { link: '</api/tags?cursor=same>; rel="next"' }))
    const iterate = async () => {
      for await (const _ of createClient({ baseUrl: 'http://x', fetch }).tags.iterate()) void _
    }
    await expect(iterate()).rejects.toThrow(/repeated cursor same/)
  })
})

describe('writes', () => {
  it('sends If-Match as the ETag of the version given', async () => {
    const { fetch, requests } = fakeFetch(() => json(component(1, { version: 4 })))
    const client = createClient({ baseUrl: 'http://x', fetch })
    await client.components.patch('cmp_1', { description: 'x' }, { ifMatch: 3 })
    await client.components.patch('cmp_1', { description: 'y' }, { ifMatch: 'W/"3"' })
    await client.components.patch('cmp_1', { description: 'z' })
    expect(requests.map((r) => r.headers.get('if-match'))).toEqual(['"3"', 'W/"3"', null])
    expect(requests[0]!.method).toBe('PATCH')
    expect(JSON.parse(requests[0]!.body)).toEqual({ description: 'x' })
    expect(requests[0]!.headers.get('content-type')).toBe('application/json')
  })

  it('reverts with the version in the body and If-Match, and does not retry a lost answer', async () => {
    const { fetch, requests } = fakeFetch((_req, _body, n) => (n === 1 ? json(component(1, { version: 5 })) : problem(503, 'SERVICE_UNAVAILABLE')))
    const client = createClient({ baseUrl: 'http://x', fetch, retryDelayMs: 1 })
    expect((await client.components.revert('cmp_1', 2, { ifMatch: 4 })).version).toBe(5)
    expect(requests[0]).toMatchObject({ method: 'POST', body: '{"version":2}' })
    expect(requests[0]!.url.pathname).toBe('/api/components/cmp_1/revert')
    expect(requests[0]!.headers.get('if-match')).toBe('"4"')
    await expect(client.components.revert('cmp_1', 2)).rejects.toMatchObject({ status: 503 })
    expect(requests).toHaveLength(2)
  })

  it('uploads raw bytes with the metadata in the query', async () => {
    const { fetch, requests } = fakeFetch(() => json({}, {}, 201))
    await createClient({ baseUrl: 'http://x', fetch }).attachments.upload(new TextEncoder().encode('%PDF'), { name: 'ds.pdf', contentType: 'application/pdf' })
    expect(requests[0]!.url.search).toBe('?name=ds.pdf')
    expect(requests[0]!.headers.get('content-type')).toBe('application/pdf')
    expect(requests[0]!.body).toBe('%PDF')
  })
})

describe('withComment', () => {
  it('sends the comment with every request of the client it returns, keeping the options; the original sends none', async () => {
    const { fetch, requests } = fakeFetch((req) => (req.method === 'GET' ? json([], { 'x-total-count': '0' }) : json(component(1, { version: 2 }))))
    const client = createClient({ baseUrl: 'http://x:4000/', token: 'clt_abc', fetch })
    const commented = client.withComment('Datasheet rev C')
    await commented.components.patch('cmp_1', { description: 'x' }, { ifMatch: 1 })
    await commented.tags.list()
    await client.components.patch('cmp_1', { description: 'y' })
    expect(requests.map((r) => [r.url.href, r.headers.get('authorization'), r.headers.get('complib-comment')])).toEqual([
      ['http://x:4000/api/components/cmp_1', 'Bearer clt_abc', 'Datasheet rev C'],
      ['http://x:4000/api/tags', 'Bearer clt_abc', 'Datasheet rev C'],
      ['http://x:4000/api/components/cmp_1', 'Bearer clt_abc', null],
    ])
    expect(requests[0]!.headers.get('if-match')).toBe('"1"')
  })

  it('percent-encodes a comment that is not printable ASCII, or holds a %, as the server decodes it', async () => {
    const { fetch, requests } = fakeFetch(() => json(component(1)))
    const client = createClient({ baseUrl: 'http://x', fetch })
    const comments = ['plain: (ok) #1 ~', 'Widerstand geändert, Ω → kΩ', 'tolerance 1% now', 'two\nlines']
    for (const comment of comments) await client.withComment(comment).components.get('cmp_1')
    const sent = requests.map((r) => r.headers.get('complib-comment')!)
    expect(sent).toEqual(['plain: (ok) #1 ~', encodeURIComponent('Widerstand geändert, Ω → kΩ'), 'tolerance%201%25%20now', 'two%0Alines'])
    expect(sent.map((v) => (v.includes('%') ? decodeURIComponent(v) : v))).toEqual(comments)
  })

  it('replaces the comment when called on a commented client', async () => {
    const { fetch, requests } = fakeFetch(() => json(component(1)))
    await createClient({ baseUrl: 'http://x', fetch }).withComment('first').withComment('second').components.get('cmp_1')
    expect(requests[0]!.headers.get('complib-comment')).toBe('second')
  })
})

describe('errors', () => {
  it('maps a 412 to PreconditionFailedError carrying the problem body', async () => {
    const { fetch } = fakeFetch(() => problem(412, 'PRECONDITION_FAILED', 'component is at version 5, not 3'))
    const error = await createClient({ baseUrl: 'http://x', fetch }).components.patch('cmp_1', {}, { ifMatch: 3 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PreconditionFailedError)
    expect(error).toBeInstanceOf(ComplibApiError)
    expect(error).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', detail: 'component is at version 5, not 3', request: 'PATCH /components/cmp_1' })
  })

  it('maps 400, 404 and 409 to their classes, with the field errors', async () => {
    const answers = [problem(400, 'VALIDATION_FAILED', 'body.name: required', [{ path: 'body.name', message: 'required' }]), problem(404, 'NOT_FOUND'), problem(409, 'CONFLICT')]
    const { fetch } = fakeFetch((_req, _body, n) => answers[n - 1]!)
    const client = createClient({ baseUrl: 'http://x', fetch })
    const invalid = await client.components.create({ name: '' }).catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(ValidationError)
    expect((invalid as ValidationError).errors).toEqual([{ path: 'body.name', message: 'required' }])
    await expect(client.components.get('cmp_x')).rejects.toBeInstanceOf(NotFoundError)
    await expect(client.components.create({ name: 'a', ipn: 'X' })).rejects.toBeInstanceOf(ConflictError)
  })

  it('turns an answer that is not a problem body into an HTTP_<status> error', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }))
    const error = await createClient({ baseUrl: 'http://x', fetch, retries: 0 }).health().catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', detail: '<html>bad gateway</html>' })
  })

  it('the request escape hatch answers with typed errors too', async () => {
    const { fetch } = fakeFetch(() => problem(404, 'NOT_FOUND'))
    await expect(createClient({ baseUrl: 'http://x', fetch }).request('/kicad/v1/parts/nope.json')).rejects.toBeInstanceOf(NotFoundError)
  })
})

describe('retries', () => {
  const flaky = (failures: number, fail: () => Response | never) =>
    fakeFetch((_req, _body, n) => (n <= failures ? fail() : json({ status: 'ok', version: 'v', storage: 's', uptimeSeconds: 0 })))

  it('retries a 503 of a read and succeeds when the server recovers', async () => {
    const { fetch, requests } = flaky(2, () => problem(503, 'SERVICE_UNAVAILABLE'))
    expect((await createClient({ baseUrl: 'http://x', fetch, retries: 2, retryDelayMs: 1 }).health()).status).toBe('ok')
    expect(requests).toHaveLength(3)
  })

  it('retries a network error, then gives up with ComplibNetworkError', async () => {
    const { fetch, requests } = flaky(10, () => {
      throw new TypeError('fetch failed')
    })
    const error = await createClient({ baseUrl: 'http://x', fetch, retries: 2, retryDelayMs: 1 }).health().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ComplibNetworkError)
    expect((error as Error).message).toMatch(/GET \/health: no answer/)
    expect(requests).toHaveLength(3)
  })

  it('does not retry a 4xx', async () => {
    const { fetch, requests } = fakeFetch(() => problem(404, 'NOT_FOUND'))
    await expect(createClient({ baseUrl: 'http://x', fetch, retryDelayMs: 1 }).health()).rejects.toBeInstanceOf(NotFoundError)
    expect(requests).toHaveLength(1)
  })

  it('never retries a create, which could make the record twice', async () => {
    const { fetch, requests } = fakeFetch(() => problem(503, 'SERVICE_UNAVAILABLE'))
    await expect(createClient({ baseUrl: 'http://x', fetch, retryDelayMs: 1 }).components.create({ name: 'R' })).rejects.toMatchObject({ status: 503 })
    expect(requests).toHaveLength(1)
  })

  it('retries the POSTs that change nothing (parametric search, bulk dry run) but not a real bulk delete', async () => {
    const { fetch, requests } = fakeFetch(() => problem(500, 'INTERNAL'))
    const client = createClient({ baseUrl: 'http://x', fetch, retries: 1, retryDelayMs: 1 })
    await expect(client.searchParametric({ conditions: [{ type: 'Resistance', min: '1k' }] })).rejects.toMatchObject({ status: 500 })
    await expect(client.bulk.delete({ ids: ['cmp_1'], dryRun: true })).rejects.toMatchObject({ status: 500 })
    await expect(client.bulk.delete({ ids: ['cmp_1'] })).rejects.toMatchObject({ status: 500 })
    expect(requests.map((r) => r.url.pathname)).toEqual(['/api/search/parametric', '/api/search/parametric', '/api/bulk/components/delete', '/api/bulk/components/delete', '/api/bulk/components/delete'])
  })
})

describe('runs.wait', () => {
  it('polls until the run has finished', async () => {
    const statuses = ['queued', 'running', 'succeeded']
    const { fetch, requests } = fakeFetch((_req, _body, n) => json({ id: 'run_1', status: statuses[n - 1], batches: [] }))
    const polled: string[] = []
    const run = await createClient({ baseUrl: 'http://x', fetch }).runs.wait('run_1', { intervalMs: 1, onPoll: (r) => polled.push(r.status) })
    expect(run.status).toBe('succeeded')
    expect(polled).toEqual(statuses)
    expect(requests[0]!.url.pathname).toBe('/api/connector-runs/run_1')
  })
})
