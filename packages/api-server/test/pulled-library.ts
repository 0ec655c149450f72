import type { PeerPart } from '@complib/core'
import { expect } from 'vitest'
import type { TestApi } from './harness'

/**
 * Checks, field by field, that every peer part a pull read is in the library
 * as the pull's rows say it (decision 1609): found by the peer's key, with its
 * name, IPN, description, status, category path, tags, parameters with units,
 * MPNs, offers with their price breaks, stock per location path, attachment
 * links and KiCad fields. Returns the component id of each key.
 */
export async function expectPulledLosslessly(api: TestApi, sourceId: string, parts: readonly PeerPart[]): Promise<Map<string, string>> {
  const refs = await api.storage.externalRefs.lookup(sourceId, 'part', parts.map((p) => p.key))
  const ids = new Map(refs.map((r) => [r.key, r.target]))
  expect(ids.size, 'every pulled part has its reference').toBe(parts.length)
  for (const part of parts) {
    const id = ids.get(part.key)!
    const at = `part ${part.key}`
    const c = await api.ok('GET', `/api/components/${id}`)
    expect({ name: c.name, description: c.description ?? '' }, at).toEqual({ name: part.name, description: part.description ?? '' })
    if (part.ipn !== null) expect(c.ipn, at).toBe(part.ipn)
    if (part.status !== null) expect(c.status, at).toBe(part.status)
    expect(c.category ?? '', at).toBe(part.categoryPath.map((n) => n.replaceAll('/', '∕')).join('/'))
    expect([...c.tags].map((t: string) => t.toLowerCase()).sort(), at).toEqual([...new Set(part.tags.map((t) => t.toLowerCase()))].sort())
    expect(_sorted(c.parameters.map((p: { type: string; value: string; unit: string | null }) => [p.type, p.value, p.unit ?? ''])), at).toEqual(_sorted(part.parameters.map((p) => [p.name, p.value, p.unit ?? ''])))
    expect(_sorted(c.mpns.map((m: { manufacturer: string; partNumber: string }) => [m.manufacturer, m.partNumber])), at).toEqual(_sorted(part.mpns.map((m) => [m.manufacturer, m.partNumber])))
    const offers = await api.ok('GET', `/api/components/${id}/offers`)
    expect(_sorted(offers.map(({ sourceId: s, ref, ...o }: Record<string, unknown>) => (expect([s, ref], at).toEqual([sourceId, part.key]), JSON.stringify(_offer(o))))), at).toEqual(_sorted(part.offers.map((o) => JSON.stringify(_offer(o)))))
    const stock = await api.ok('GET', `/api/components/${id}/locations`)
    const expected = new Map<string, number>()
    for (const s of part.stock) expected.set(s.path.join(' / '), (expected.get(s.path.join(' / ')) ?? 0) + s.quantity)
    expect(_sorted(stock.map((s: { path: string; quantity: number }) => [s.path, s.quantity])), at).toEqual(_sorted([...expected].filter(([, q]) => q > 0)))
    const links = await api.ok('GET', `/api/components/${id}/attachments`)
    expect(_sorted(links.map((a: { url: string; kind: string }) => [a.url, a.kind])), at).toEqual(_sorted([...new Map(part.attachments.map((a) => [a.url, [a.url, a.kind]])).values()]))
    for (const kind of ['symbol', 'footprint'] as const) {
      const links = c[`${kind}s`] as Array<{ id: string }>
      const names = await Promise.all(links.map(async (l) => {
        const item = await api.ok('GET', `/api/${kind}s/${l.id}`)
        return `${item.library}:${item.name}`
      }))
      expect(names, `${at} ${kind}`).toEqual(part.kicad[kind] ? [part.kicad[kind]] : [])
    }
    expect(c.kicadValue, at).toBe(part.kicad.value)
    expect([c.excludeFromBom, c.excludeFromBoard, c.excludeFromSim], at).toEqual([part.kicad.excludeFromBom ?? false, part.kicad.excludeFromBoard ?? false, part.kicad.excludeFromSim ?? false])
  }
  return ids
}

function _offer(o: Record<string, unknown>): unknown[] {
  return ['supplier', 'sku', 'url', 'stock', 'minimumQuantity', 'multiple', 'packaging', 'currency', 'priceBreaks'].map((k) => o[k])
}

function _sorted<T>(list: T[]): T[] {
  return [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
}
