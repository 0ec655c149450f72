// The baseline of the newcomer's tasks (bench/newcomer.ts): the same five tasks
// as the bare API requests the page makes for them, on a server of their own,
// each timed. What the page adds on top is rendering, waiting and the person's steps.
import { BULK_TAG, CATEGORY, HAND_PARTS, MAPPING_FIXES, RANGE, type Sheet } from './newcomer-sheet'

export interface ApiTask {
  ms: number
  /** The requests, as the baseline column says them. */
  what: string
}

export async function newcomerThroughApi(base: string, sheet: Sheet): Promise<ApiTask[]> {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    })
    if (!res.ok) throw new Error(`bench: newcomer baseline: ${method} ${path} answered ${res.status}: ${await res.text()}`)
    return res.headers.get('content-type')?.includes('json') ? res.json() : res.text()
  }
  const timed = async (what: string, run: () => Promise<void>): Promise<ApiTask> => {
    const t0 = performance.now()
    await run()
    return { ms: performance.now() - t0, what }
  }
  const conditions = [{ type: RANGE.type, min: RANGE.min, max: RANGE.max }]
  type Found = { total: number; items: Array<{ id: string; version: number; tags: string[] }> }
  return [
    await timed(`${HAND_PARTS.length} POST /api/components`, async () => {
      for (const p of HAND_PARTS) await call('POST', '/api/components', { name: p.name, category: CATEGORY, parameters: [{ type: RANGE.type, value: p.resistance }] })
    }),
    await timed('POST /api/imports, PATCH of the mapping, commit', async () => {
      const session = (await call('POST', '/api/imports?name=parts.csv', sheet.csv)) as { id: string; version: number }
      const fixed = (await call('PATCH', `/api/imports/${session.id}`, { mapping: MAPPING_FIXES }, { 'if-match': String(session.version) })) as { id: string }
      await call('POST', `/api/imports/${fixed.id}/commit`)
    }),
    await timed('POST /api/search/parametric', async () => {
      const found = (await call('POST', '/api/search/parametric', { conditions, limit: 200 })) as Found
      if (found.total !== sheet.inRange) throw new Error(`bench: newcomer baseline: the range finds ${found.total}, not ${sheet.inRange}`)
    }),
    await timed('the search, then PATCH /api/bulk/components dry run and for real', async () => {
      const { items } = (await call('POST', '/api/search/parametric', { conditions, limit: 200 })) as Found
      const body = { items: items.map((c) => ({ id: c.id, patch: { tags: [...c.tags, BULK_TAG] }, ifVersion: c.version })) }
      await call('PATCH', '/api/bulk/components', { ...body, dryRun: true })
      await call('PATCH', '/api/bulk/components', body)
    }),
    await timed('GET /api/exports/components?format=csv', async () => {
      await call('GET', '/api/exports/components?format=csv')
    }),
  ]
}
