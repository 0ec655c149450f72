// KiCad's HTTP library opened against the seeded library (decision 1310).
// A cold open as KiCad 10.0.5 and later makes it: the root, categories.json
// and every category's listing, which carries each part's fields (decision
// 0635), so no part is asked for. The same open as an older KiCad, which then
// asks for each part by id. A warm open by a client that revalidates with
// If-None-Match (decision 0636): every answer a 304. And the largest
// category's listing against the baseline of the same run: the same parts
// as the components API gives them, `GET /api/components?category=…`.
import type { BenchRow, HttpBenchContext } from './http'
import { int, median } from './lib/load'
import type { ServerProcess } from './lib/server'

interface Open {
  requests: number
  bytes: number
  ms: number
  notModified: number
}

export async function benchKicad(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  const base = `${server.url}/api/kicad/v1/`
  const tags = new Map<string, string>()
  const fetchAll = async (open: Open, paths: readonly string[], revalidate: boolean, concurrency = 1): Promise<string[]> => {
    const bodies: string[] = new Array(paths.length)
    let next = 0
    const worker = async () => {
      while (next < paths.length) {
        const i = next++
        const path = paths[i]!
        const tag = tags.get(path)
        const res = await fetch(`${base}${path}`, { headers: { accept: 'application/json', ...(revalidate && tag ? { 'if-none-match': tag } : {}) } })
        const body = await res.text()
        if (res.status !== 200 && res.status !== 304) throw new Error(`bench kicad: ${path} answered ${res.status}`)
        open.requests++
        open.bytes += Buffer.byteLength(body)
        if (res.status === 304) open.notModified++
        else tags.set(path, res.headers.get('etag') ?? '')
        bodies[i] = body
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    return bodies
  }
  // KiCad 10: the root, the categories, each category's listing; one request at a time, as its connection does.
  const open = async (revalidate: boolean) => {
    const o: Open = { requests: 0, bytes: 0, ms: 0, notModified: 0 }
    const t0 = performance.now()
    await fetchAll(o, [''], revalidate)
    const [categoriesText] = await fetchAll(o, ['categories.json'], revalidate)
    const categories = revalidate && categoriesText === '' ? cachedCategories : (JSON.parse(categoriesText!) as Array<{ id: string; name: string }>)
    cachedCategories = categories
    const listings = await fetchAll(o, categories.map((c) => `parts/category/${c.id}.json`), revalidate)
    o.ms = performance.now() - t0
    return { o, categories, listings }
  }
  let cachedCategories: Array<{ id: string; name: string }> = []
  const cold = await open(false)
  const partIds = cold.listings.flatMap((text) => (JSON.parse(text) as Array<{ id: string }>).map((p) => p.id))
  const listed = cold.listings.map((text, i) => ({ category: cold.categories[i]!, bytes: Buffer.byteLength(text), parts: (JSON.parse(text) as unknown[]).length }))
  ctx.log(`kicad cold open (KiCad 10): ${cold.o.requests} requests, ${int(cold.o.bytes)} bytes, ${cold.o.ms.toFixed(0)} ms, ${int(partIds.length)} parts in ${cold.categories.length} categories`)
  // An older KiCad: the same, then each part by id (four at a time, so the run stays short; KiCad asks one at a time).
  const old: Open = { requests: cold.o.requests, bytes: cold.o.bytes, ms: 0, notModified: 0 }
  const t0 = performance.now()
  await fetchAll(old, partIds.map((id) => `parts/${id}.json`), false, 4)
  old.ms = cold.o.ms + (performance.now() - t0)
  ctx.log(`kicad cold open (older KiCad, each part too): ${int(old.requests)} requests, ${int(old.bytes)} bytes, ${old.ms.toFixed(0)} ms`)
  const warm = await open(true)
  ctx.log(`kicad warm open with If-None-Match: ${warm.o.requests} requests, ${warm.o.notModified} answered 304, ${int(warm.o.bytes)} bytes, ${warm.o.ms.toFixed(0)} ms`)
  if (warm.o.notModified !== warm.o.requests) throw new Error(`bench kicad: ${warm.o.requests - warm.o.notModified} answers of the warm open were not 304`)
  // The largest category: its KiCad listing against the components API's list of the same parts, alternated.
  const largest = listed.reduce((a, b) => (b.parts > a.parts ? b : a))
  const timeOf = async (url: string) => {
    const t = performance.now()
    const res = await fetch(url)
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`bench kicad: ${url} answered ${res.status}`)
    return performance.now() - t
  }
  const subject: number[] = []
  const baseline: number[] = []
  for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
    baseline.push(await timeOf(`${server.url}/api/components?category=${encodeURIComponent(largest.category.name)}&limit=100000`))
    subject.push(await timeOf(`${base}parts/category/${largest.category.id}.json`))
  }
  const s = median(subject)
  const b = median(baseline)
  ctx.log(`kicad largest listing (${largest.category.name}, ${int(largest.parts)} parts): ${subject.map((t) => t.toFixed(0)).join(', ')} ms; components API ${baseline.map((t) => t.toFixed(0)).join(', ')} ms`)
  return [
    {
      scenario: `KiCad cold open, KiCad 10 (root, categories, each listing with fields), ${int(partIds.length)} parts`,
      value: cold.o.ms,
      subject: `${cold.o.requests} requests, ${(cold.o.bytes / 1048576).toFixed(1)} MB, ${cold.o.ms.toFixed(0)} ms`,
      baseline: `older KiCad, each part too: ${int(old.requests)} requests, ${(old.bytes / 1048576).toFixed(1)} MB, ${old.ms.toFixed(0)} ms`,
      ratio: (cold.o.ms / old.ms).toFixed(3),
      target: 'report',
    },
    {
      scenario: 'KiCad warm open with If-None-Match (every answer 304)',
      value: warm.o.ms,
      subject: `${warm.o.requests} requests, ${int(warm.o.bytes)} bytes, ${warm.o.ms.toFixed(0)} ms`,
      baseline: `cold open: ${(cold.o.bytes / 1048576).toFixed(1)} MB, ${cold.o.ms.toFixed(0)} ms`,
      ratio: (warm.o.ms / cold.o.ms).toFixed(2),
      target: 'report',
    },
    {
      scenario: `KiCad listing of the largest category (${largest.category.name}, ${int(largest.parts)} parts with fields, ${(largest.bytes / 1048576).toFixed(1)} MB)`,
      value: s,
      subject: `${s.toFixed(0)} ms`,
      baseline: `${b.toFixed(0)} ms GET /api/components?category=… of the same parts`,
      ratio: (b / s).toFixed(2),
      target: 'report',
    },
  ]
}
