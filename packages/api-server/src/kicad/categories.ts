import { foldKey, type Component, type KicadSettings, type Storage } from '@complib/core'

/**
 * Which categories KiCad sees and which parts each lists (decision 0637).
 * With `categoryDepth` N a part of a deeper category is listed under its
 * ancestor at depth N, and the deeper categories are not listed; with
 * `hideObsolete` obsolete parts are left out (a placed one still resolves by id).
 */
export interface KicadView {
  hideObsolete: boolean
  depth: number | null
}

export function kicadView(settings: KicadSettings): KicadView {
  // The settings decide; COMPLIB_KICAD_HIDE_OBSOLETE, the older switch, still hides when set.
  const env = /^(1|true|yes)$/i.test(process.env.COMPLIB_KICAD_HIDE_OBSOLETE ?? '')
  return { hideObsolete: settings.hideObsolete || env, depth: settings.categoryDepth }
}

/** The category path a part is listed under: its own, or its ancestor at the depth. */
export function listedPath(path: string, view: KicadView): string {
  if (view.depth === null) return path
  const segments = path.split('/')
  return segments.length > view.depth ? segments.slice(0, view.depth).join('/') : path
}

/** The categories KiCad lists, with their record's id and how many parts each lists, in path order. */
export async function kicadCategories(storage: Storage, view: KicadView): Promise<Array<{ id: string; name: string; count: number }>> {
  const records = new Map((await storage.categories.list()).map((c) => [foldKey(c.path), c]))
  const counts = new Map<string, { id: string; name: string; count: number }>()
  const obsolete = view.hideObsolete ? await _obsoleteCounts(storage) : new Map<string, number>()
  for (const own of await storage.components.categories()) {
    const record = records.get(foldKey(listedPath(own.name, view)))
    if (!record) continue
    const entry = counts.get(record.id) ?? { id: record.id, name: record.path, count: 0 }
    entry.count += own.count - (obsolete.get(foldKey(own.name)) ?? 0)
    counts.set(record.id, entry)
  }
  return [...counts.values()].filter((c) => c.count > 0).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** Whether KiCad lists the part under the category at `path`. */
export function listedUnder(c: Component, path: string, view: KicadView): boolean {
  if (view.hideObsolete && c.status === 'obsolete') return false
  if (c.category === null) return false
  const listed = listedPath(c.category, view)
  // Most parts are spelled as their category's record: the fold, costly per part, only for the rest.
  return listed === path || foldKey(listed) === foldKey(path)
}

/**
 * The live parts of a category and its descendants, by IPN, a page at a time.
 * Pages of 5,000: each read of a page costs a fixed part besides its rows
 * (25,000 parts took 4.5 s in pages of 1,000, 1.7 s in pages of 5,000 on the
 * bench's library, decision 1310).
 */
export async function* kicadPages(storage: Storage, category: string): AsyncGenerator<Component[]> {
  let cursor: string | undefined
  do {
    const page = await storage.components.list({ category, limit: 5000, cursor, sort: 'ipn', includeDeleted: false })
    yield page.items
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

/** Obsolete parts per category path (folded): one filtered read of the few there are, not a walk of every part. */
async function _obsoleteCounts(storage: Storage): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  let cursor: string | undefined
  do {
    const page = await storage.components.list({ status: ['obsolete'], limit: 1000, cursor, sort: 'ipn', includeDeleted: false })
    for (const c of page.items) if (c.category !== null) counts.set(foldKey(c.category), (counts.get(foldKey(c.category)) ?? 0) + 1)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return counts
}
