import { ComplibError } from '../errors'
import { foldKey } from '../identifiers'
import type { ExternalRefKind, StorageSession } from '../storage/types'

/**
 * A peer's key an import keeps (decision 0640): the row's part (kind `part`,
 * written once the component exists) or a company of a company export
 * (kind `company`, the manufacturer name it means).
 */
export interface PlannedRef {
  /** The row of the file the ref comes from. */
  row: number
  source: string
  kind: ExternalRefKind
  key: string
  target: string
}

/** How to take back one ref a commit wrote: removed (previous null) or set back to what it pointed at. */
export interface RefUndo {
  source: string
  kind: ExternalRefKind
  key: string
  previous: string | null
}

const LABELS: Record<string, string> = { inventree: 'InvenTree', partdb: 'Part-DB' }

/** A source as people write it: `InvenTree` for `inventree`. */
export function sourceLabel(source: string): string {
  return Object.hasOwn(LABELS, source) ? LABELS[source]! : source
}

/**
 * The manufacturer name of a company the library does not know yet
 * (decision 0646): the company export renames it wherever it is carried.
 * Always the same text for one key, so that it is found again without a
 * record of its own.
 */
export function placeholderManufacturer(source: string, key: string): string {
  return `${sourceLabel(source)} company ${key}`
}

/**
 * The manufacturer names of a source's company keys, looked up once per key
 * per plan: the held ref's name, else the placeholder.
 */
export function companyNames(storage: StorageSession, source: string): (key: string) => Promise<string> {
  const cache = new Map<string, string>()
  return async (key) => {
    let name = cache.get(key)
    if (name === undefined) {
      const [held] = await storage.externalRefs.lookup(source, 'company', [key])
      name = held?.target ?? placeholderManufacturer(source, key)
      cache.set(key, name)
    }
    return name
  }
}

/** Writes refs in the caller's transaction; what undoes them. */
export async function writeRefs(tx: StorageSession, refs: ReadonlyArray<Omit<PlannedRef, 'row'>>): Promise<RefUndo[]> {
  if (refs.length === 0) return []
  const before = await tx.externalRefs.upsert(refs.map(({ source, kind, key, target }) => ({ source, kind, key, target })))
  return refs.map((r, i) => ({ source: r.source, kind: r.kind, key: r.key, previous: before[i] ?? null }))
}

/** Puts refs back as they were before a commit wrote them, latest first. */
export async function undoRefs(tx: StorageSession, undo: readonly RefUndo[]): Promise<void> {
  for (const u of [...undo].reverse()) {
    if (u.previous === null) await tx.externalRefs.remove([u])
    else await tx.externalRefs.upsert([{ source: u.source, kind: u.kind, key: u.key, target: u.previous }])
  }
}

/** The component a part ref names, when it is held and the component is live; null otherwise (never imported, purged, or in the trash). */
export async function liveTarget<T extends { deletedAt: string | null }>(get: (id: string) => Promise<T>, id: string | undefined): Promise<T | null> {
  if (id === undefined) return null
  try {
    const found = await get(id)
    return found.deletedAt === null ? found : null
  } catch (error) {
    if (error instanceof ComplibError && error.code === 'NOT_FOUND') return null
    throw error
  }
}

/** Whether two manufacturer names are one (as the database compares them). */
export function sameManufacturer(a: string, b: string): boolean {
  return foldKey(a) === foldKey(b)
}
