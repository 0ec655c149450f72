// The baseline of the newcomer's tasks (bench/newcomer.ts): the same five tasks
// as the bare API requests the page makes for them, on a server of their own,
// each timed. What the page adds on top is rendering, waiting and the person's steps.
import { BULK_TAG, CATEGORY, HAND_PARTS, MAPPING_FIXES, RANGE, csvRecords, type Sheet } from './newcomer-sheet'

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
  // The range as the library's list and export take it (`parameter=Resistance:1k..10k`).
  const range = `parameter=${encodeURIComponent(`${RANGE.type}:${RANGE.min}..${RANGE.max}`)}`
  type Found = Array<{ id: string; version: number; tags: string[] }>
  const found = async () => {
    const res = await fetch(`${base}/api/components?${range}&limit=200`)
    const items = (await res.json()) as Found
    const total = Number(res.headers.get('x-total-count'))
    if (total !== sheet.inRange || items.length !== total) throw new Error(`bench: newcomer baseline: the range finds ${total}, not ${sheet.inRange}`)
    return items
  }
  return [
    await timed(`${HAND_PARTS.length} POST /api/components`, async () => {
      for (const p of HAND_PARTS) await call('POST', '/api/components', { name: p.name, category: CATEGORY, parameters: [{ type: RANGE.type, value: p.resistance }] })
    }),
    await timed('POST /api/imports, PATCH of the mapping, commit', async () => {
      const session = (await call('POST', '/api/imports?name=parts.csv', sheet.csv)) as { id: string; version: number }
      const fixed = (await call('PATCH', `/api/imports/${session.id}`, { mapping: MAPPING_FIXES }, { 'if-match': String(session.version) })) as { id: string }
      await call('POST', `/api/imports/${fixed.id}/commit`)
    }),
    await timed(`GET /api/components?${decodeURIComponent(range)}`, async () => {
      await found()
    }),
    await timed('that GET, then PATCH /api/bulk/components as a dry run and for real', async () => {
      const items = await found()
      const body = { items: items.map((c) => ({ id: c.id, patch: { tags: [...c.tags, BULK_TAG] }, ifVersion: c.version })) }
      await call('PATCH', '/api/bulk/components', { ...body, dryRun: true })
      await call('PATCH', '/api/bulk/components', body)
    }),
    await timed('GET /api/exports/components?format=csv with the range', async () => {
      const csv = (await call('GET', `/api/exports/components?format=csv&${range}`)) as string
      if (csvRecords(csv).filter((r) => r.some((f) => f !== '')).length - 1 !== sheet.inRange) throw new Error(`bench: newcomer baseline: the export does not hold the ${sheet.inRange} rows in the range`)
    }),
  ]
}
