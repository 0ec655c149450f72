import type { Attachment, Component, Storage } from '@complib/core'

/** What toKicadPart needs besides the component. */
export interface KicadRefs {
  symbol?: string | undefined
  footprints: string[]
  attachments: Attachment[]
  origin: string
  valueType?: string | undefined
}

/**
 * Loads what KiCad parts refer to, for one request (decision 0635): each
 * symbol, footprint and category's value template is read once however many
 * parts share it, and a page of parts is resolved together, so a category
 * listing of 100,000 parts costs a read per distinct symbol or footprint, not
 * per part. Attachments are read only for the parts that have some.
 */
export function kicadRefLoader(storage: Storage, origin: string) {
  const symbols = new Map<string, Promise<string>>()
  const footprints = new Map<string, Promise<string>>()
  const valueTypes = new Map<string, Promise<string | undefined>>()
  const once = <T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let hit = cache.get(key)
    if (!hit) cache.set(key, (hit = load()))
    return hit
  }
  const one = async (c: Component): Promise<KicadRefs> => {
    const symbolId = c.symbols[0]?.id
    const [symbol, fps, attachments, valueType] = await Promise.all([
      symbolId ? once(symbols, symbolId, async () => libId(await storage.symbols.get(symbolId))) : undefined,
      Promise.all(c.footprints.map((f) => once(footprints, f.id, async () => libId(await storage.footprints.get(f.id))))),
      c.attachments.length ? storage.attachments.listForComponent(c.id) : [],
      // The category's value parameter (decision 0440), if its templates name one; keyed by the path as spelled
      // (the store folds it), so another spelling of the same path is only read again.
      once(valueTypes, c.category ?? '', async () => (await storage.categories.templatesForPath(c.category)).find((t) => t.isValue)?.parameterType),
    ])
    return { symbol, footprints: fps, attachments, origin, valueType }
  }
  return { one, page: (cs: readonly Component[]) => Promise.all(cs.map(one)) }
}

/** KiCad names a library entry `Library:Name`. */
export function libId(item: { library: string | null; name: string }): string {
  return item.library ? `${item.library}:${item.name}` : item.name
}
