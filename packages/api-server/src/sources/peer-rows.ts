import { proposeMapping, type ImportTarget, type PeerPart } from '@complib/core'

/** The columns of a pull's rows, in the order a preview shows them. */
export const PULL_COLUMNS = [
  'key', 'name', 'ipn', 'description', 'status', 'category', 'tags', 'parameters', 'mpns', 'stock', 'attachments',
  'symbols', 'footprints', 'kicadValue', 'excludeFromBom', 'excludeFromBoard', 'excludeFromSim', 'offers',
] as const

/** The mapping of a pull's rows: the `pull` preset's (decision 1609). */
export function pullMapping(): Record<string, ImportTarget> {
  return proposeMapping(PULL_COLUMNS, 'pull')
}

/**
 * One peer part as one import row (decision 1609), in the cells the import
 * reads from a JSON file: texts, and lists kept as lists. An empty cell is
 * one the import leaves alone, so what the peer does not say (no IPN, no
 * KiCad value) never overwrites what the library holds.
 */
export function peerPartRow(part: PeerPart): Record<string, unknown> {
  const flag = (v: boolean | null) => (v === null ? '' : String(v))
  return {
    key: part.key,
    name: part.name,
    ipn: part.ipn ?? '',
    description: part.description ?? '',
    status: part.status ?? '',
    // The path as a list, so an arrow in a name stays in it; `/` separates a stored path, so a name's own becomes a lookalike.
    category: part.categoryPath.map((n) => n.replaceAll('/', '∕')),
    tags: part.tags,
    parameters: part.parameters.map((p) => ({ type: p.name, value: p.value, unit: p.unit ?? '' })),
    mpns: part.mpns,
    stock: part.stock,
    attachments: part.attachments,
    symbols: part.kicad.symbol ? [part.kicad.symbol] : '',
    footprints: part.kicad.footprint ? [part.kicad.footprint] : '',
    kicadValue: part.kicad.value ?? '',
    excludeFromBom: flag(part.kicad.excludeFromBom),
    excludeFromBoard: flag(part.kicad.excludeFromBoard),
    excludeFromSim: flag(part.kicad.excludeFromSim),
    offers: part.offers,
  }
}
