import { formatStockItem, joinList, toLocationPaths, type Component, type ComponentFilters, type ComponentOffer, type Storage } from '@complib/core'
import { stringify } from 'csv-stringify/sync'

/**
 * A component as exported: everything it carries, in a form the import reads
 * back (decision 0601): symbols and footprints with their
 * library, stock per location path, attachments with their links.
 */
export type ExportedComponent = Omit<Component, 'symbols' | 'footprints' | 'attachments'> & {
  symbols: Array<{ id: string; name: string; library: string | null }>
  footprints: Array<{ id: string; name: string; library: string | null }>
  attachments: Array<{ id: string; name: string; kind: string; url: string | null; sha256: string | null; size: number | null; contentType: string }>
  stock: Array<{ location: string; path: string[]; quantity: number }>
  /** Supplier offers as each source last gave them (read, not imported back). */
  offers: Array<Omit<ComponentOffer, 'sourceId' | 'ref'>>
}

/**
 * What an export holds (decision 0620): the components matching the list's
 * filters, by id, or exactly the components named, in their order (deleted
 * ones too; unknown ones left out).
 */
export type ExportSource = { filters: ComponentFilters } | { ids: readonly string[] }

/** The components of `source`, page by page, with their links, stock and attachments read beside them. */
export async function* exportComponents(storage: Storage, source: ExportSource): AsyncGenerator<ExportedComponent> {
  const paths = toLocationPaths(await storage.locations.tree())
  const items = new Map<string, { name: string; library: string | null }>()
  const item = async (kind: 'symbols' | 'footprints', id: string) => {
    let found = items.get(id)
    if (!found) {
      const record = await storage[kind].get(id)
      found = { name: record.name, library: record.library }
      items.set(id, found)
    }
    return { id, ...found }
  }
  for await (const c of _components(storage, source)) {
    // A deleted component is not found by the per-component reads of live ones.
    const attachments = !c.attachments.length ? [] : c.deletedAt ? (await storage.attachments.list({ componentId: c.id, limit: 1000 })).items : await storage.attachments.listForComponent(c.id)
    const stock = c.deletedAt ? [] : await storage.locations.stockForComponent(c.id)
    const offers = (await storage.offers.list(c.id)).map(({ sourceId: _source, ref: _ref, ...o }) => o)
    yield {
      ...c,
      symbols: await Promise.all(c.symbols.map((s) => item('symbols', s.id))),
      footprints: await Promise.all(c.footprints.map((f) => item('footprints', f.id))),
      attachments: attachments.map((a) => ({ id: a.id, name: a.name, kind: a.kind, url: a.url, sha256: a.sha256, size: a.size, contentType: a.contentType })),
      stock: stock.map((s) => ({ location: s.path, path: paths.get(s.locationId) ?? [s.locationName], quantity: s.quantity })),
      offers,
    }
  }
}

async function* _components(storage: Storage, source: ExportSource): AsyncGenerator<Component> {
  if ('ids' in source) {
    const ids = [...new Set(source.ids)]
    for (let i = 0; i < ids.length; i += 1000) yield* await storage.components.getMany(ids.slice(i, i + 1000), { includeDeleted: true })
    return
  }
  let cursor: string | undefined
  do {
    const page = await storage.components.list({ ...source.filters, limit: 1000, cursor, sort: 'id' })
    yield* page.items
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

/**
 * Components as CSV: the fields, one manufacturer/partNumber pair per MPN
 * (`manufacturer 2`, `partNumber 2`, …), symbols and footprints as
 * `Library:Name` lists, stock as `Path/To/Location=quantity` items, link
 * attachments as a JSON list, the KiCad Value and exclusion flags, then one
 * column per parameter type and a `<type> unit` column beside it where a unit
 * was given.
 */
export function toCsv(components: ExportedComponent[]): string {
  const types = [...new Set(components.flatMap((c) => c.parameters.map((p) => p.type)))]
  const withUnit = new Set(components.flatMap((c) => c.parameters.filter((p) => p.unit).map((p) => p.type)))
  const mpnCount = Math.max(1, ...components.map((c) => c.mpns.length))
  const mpnHeader = Array.from({ length: mpnCount }, (_, i) => (i === 0 ? ['manufacturer', 'partNumber'] : [`manufacturer ${i + 1}`, `partNumber ${i + 1}`])).flat()
  const parameterHeader = types.flatMap((t) => (withUnit.has(t) ? [t, `${t} unit`] : [t]))
  // Offers only in a library that has some: files of one without any stay as they were.
  const offers = components.some((c) => c.offers.length > 0)
  const header = ['id', 'ipn', 'name', 'description', 'status', 'category', 'tags', ...mpnHeader, 'symbols', 'footprints', 'stock', 'attachments', ...KICAD_HEADER, ...(offers ? ['offers'] : []), ...parameterHeader]
  const ref = (i: { name: string; library: string | null }) => (i.library ? `${i.library}:${i.name}` : i.name)
  const rows = components.map((c) => [
    c.id,
    c.ipn,
    c.name,
    c.description ?? '',
    c.status,
    c.category ?? '',
    joinList(c.tags),
    ...Array.from({ length: mpnCount }, (_, i) => [c.mpns[i]?.manufacturer ?? '', c.mpns[i]?.partNumber ?? '']).flat(),
    joinList(c.symbols.map(ref)),
    joinList(c.footprints.map(ref)),
    c.stock.map((s) => formatStockItem(s.path, s.quantity)).join('; '),
    c.attachments.length ? JSON.stringify(c.attachments.map((a) => ({ name: a.name, kind: a.kind, url: a.url }))) : '',
    c.kicadValue ?? '',
    String(c.excludeFromBom),
    String(c.excludeFromBoard),
    String(c.excludeFromSim),
    ...(offers ? [c.offers.length ? JSON.stringify(c.offers) : ''] : []),
    ...types.flatMap((t) => {
      const p = c.parameters.find((q) => q.type === t)
      return withUnit.has(t) ? [p?.value ?? '', p?.unit ?? ''] : [p?.value ?? '']
    }),
  ])
  // A leading =, +, - or @ would be a formula to a spreadsheet: quote it as text.
  return stringify([header, ...rows], { cast: { string: (v) => (/^[=+\-@]/.test(v) ? `'${v}` : v) } })
}

/** The KiCad columns: the explicit Value (empty for the default rule) and the exclusion flags as `true`/`false`. */
const KICAD_HEADER = ['kicadValue', 'excludeFromBom', 'excludeFromBoard', 'excludeFromSim']

/** The export of `source` as a file to download: JSON or CSV, named by the day. */
export async function exportFile(storage: Storage, source: ExportSource, format: 'csv' | 'json'): Promise<Response> {
  const all: ExportedComponent[] = []
  for await (const c of exportComponents(storage, source)) all.push(c)
  const stamp = new Date().toISOString().slice(0, 10)
  if (format === 'json') {
    return new Response(JSON.stringify(all), { headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="components-${stamp}.json"` } })
  }
  return new Response(toCsv(all), { headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="components-${stamp}.csv"` } })
}
