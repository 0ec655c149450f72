import { describe, expect, it } from 'vitest'
import { ComplibApiError } from './errors'
import { createClient } from './client'

const problem = (status: number, code: string) =>
  new Response(JSON.stringify({ type: `urn:complib:problem:${code}`, title: code, status, detail: 'nope', code }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  })

describe('createClient', () => {
  it('calls /api/health with the api key as a bearer token', async () => {
    const seen: Request[] = []
    const client = createClient({
      baseUrl: 'http://127.0.0.1:4000/',
      apiKey: 'k',
      fetch: async (input, init) => {
        seen.push(new Request(input, init))
        return Response.json({ status: 'ok', version: '1.0.0-beta.4', storage: 'sqljs', uptimeSeconds: 1 })
      },
    })
    expect((await client.health()).version).toBe('1.0.0-beta.4')
    expect(seen[0]!.url).toBe('http://127.0.0.1:4000/api/health')
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer k')
  })

  it('throws a typed error carrying the problem body', async () => {
    const client = createClient({ baseUrl: 'http://x', fetch: async () => problem(401, 'UNAUTHORIZED') })
    const error = await client.health().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ComplibApiError)
    expect((error as ComplibApiError).code).toBe('UNAUTHORIZED')
    expect((error as ComplibApiError).status).toBe(401)
  })

  it('retries a 503 and succeeds when the server recovers', async () => {
    let calls = 0
    const client = createClient({
      baseUrl: 'http://x',
      retries: 2,
      fetch: async () => (++calls < 3 ? problem(503, 'SERVICE_UNAVAILABLE') : Response.json({ status: 'ok', version: 'v', storage: 's', uptimeSeconds: 0 })),
    })
    expect((await client.health()).status).toBe('ok')
    expect(calls).toBe(3)
  })

  it('does not retry a 4xx', async () => {
    let calls = 0
    const client = createClient({ baseUrl: 'http://x', fetch: async () => (calls++, problem(404, 'NOT_FOUND')) })
    await expect(client.health()).rejects.toBeInstanceOf(ComplibApiError)
    expect(calls).toBe(1)
  })
})
