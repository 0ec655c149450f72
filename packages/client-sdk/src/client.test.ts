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

  it('uploads raw bytes with the metadata in the query', async () => {
    const { fetch, requests } = fakeFetch(() => json({}, {}, 201))
    await createClient({ baseUrl: 'http://x', fetch }).attachments.upload(new TextEncoder().encode('%PDF'), { name: 'ds.pdf', contentType: 'application/pdf' })
    expect(requests[0]!.url.search).toBe('?name=ds.pdf')
    expect(requests[0]!.headers.get('content-type')).toBe('application/pdf')
    expect(requests[0]!.body).toBe('%PDF')
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
