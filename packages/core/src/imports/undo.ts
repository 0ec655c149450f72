import { ComplibError } from '../errors'
import type { StorageSession } from '../storage/types'
import { undoRefs } from './external-refs'
import type { ImportUndo } from './plan'

/**
 * Takes back what one chunk of a commit applied (decision 0616), latest part
 * first, in the caller's transaction: created components are purged, updated
 * ones reverted to their version before (a new version whose history says
 * so) with their stock set back; then the attachments, locations, symbols and
 * footprints the parts made are deleted, and the peers' keys they wrote are
 * set back (decision 0649). What another request has since
 * come to rely on is kept: a library item still linked, a location holding
 * other stock.
 */
export async function undoImport(tx: StorageSession, entries: readonly ImportUndo[]): Promise<void> {
  const ordered = [...entries].reverse()
  for (const u of ordered) {
    if (u.created) await _ignoreMissing(tx.components.purge(u.created))
    if (u.updated) {
      const { id, version, stock } = u.updated
      const now = await tx.components.get(id, { includeDeleted: true }).catch(() => null)
      // Reverted only when the commit changed it (its version moved past the one recorded).
      if (now && now.version > version) await tx.components.revert(id, version)
      if (stock) {
        const before = new Map(stock.map((s) => [s.locationId, s.quantity]))
        for (const s of await tx.locations.stockForComponent(id)) if (!before.has(s.locationId)) await tx.locations.setStock(id, s.locationId, 0)
        for (const [locationId, quantity] of before) await tx.locations.setStock(id, locationId, quantity)
      }
    }
    for (const a of u.attachments ?? []) await _ignoreMissing(tx.attachments.delete(a))
    if (u.offers) await tx.offers.replace(u.offers.componentId, u.offers.sourceId, u.offers.ref, u.offers.before)
    if (u.refs) await undoRefs(tx, u.refs)
  }
  for (const u of ordered) {
    // Made root first: deleted leaf first.
    for (const l of [...(u.locations ?? [])].reverse()) await _ignore(tx.locations.delete(l), ['NOT_FOUND', 'CONFLICT'])
    for (const s of u.symbols ?? []) await _ignore(tx.symbols.delete(s), ['NOT_FOUND', 'CONFLICT'])
    for (const f of u.footprints ?? []) await _ignore(tx.footprints.delete(f), ['NOT_FOUND', 'CONFLICT'])
  }
}

function _ignoreMissing(p: Promise<unknown>): Promise<void> {
  return _ignore(p, ['NOT_FOUND'])
}

async function _ignore(p: Promise<unknown>, codes: readonly string[]): Promise<void> {
  try {
    await p
  } catch (error) {
    if (!(error instanceof ComplibError && codes.includes(error.code))) throw error
  }
}
