/** A fetch that answers from `handler` in-process and records every request (with its body text). */
export function fakeFetch(handler: (req: Request, body: string, n: number) => Response | Promise<Response>) {
  const requests: Array<{ method: string; url: URL; headers: Headers; body: string }> = []
  const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const req = new Request(input, init)
    const body = req.body ? await req.text() : ''
    requests.push({ method: req.method, url: new URL(req.url), headers: req.headers, body })
    return handler(req, body, requests.length)
  }) as typeof globalThis.fetch
  return { fetch, requests }
}

export function problem(status: number, code: string, detail = 'nope', errors?: Array<{ path: string; message: string }>): Response {
  return new Response(JSON.stringify({ type: `urn:complib:problem:${code.toLowerCase()}`, title: code, status, detail, code, ...(errors ? { errors } : {}) }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  })
}

/** A minimal component as the server shows it. */
export function component(n: number, fields: Record<string, unknown> = {}) {
  return {
    id: `cmp_${String(n).padStart(26, '0')}`,
    name: `Part ${n}`,
    ipn: `CMP-${String(n).padStart(5, '0')}`,
    description: null,
    status: 'active',
    category: null,
    tags: [],
    parameters: [],
    mpns: [],
    symbols: [],
    footprints: [],
    attachments: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    deletedAt: null,
    ...fields,
  }
}
