import { count, price } from '../../ui/format'

/** The fields enrichment fills and provenance names, as the page says them. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  category: 'Category',
  mpns: 'Manufacturer part numbers',
  parameters: 'Parameters',
  status: 'Status',
  datasheet: 'Datasheet',
  offers: 'Offers',
}

export function fieldName(field: string): string {
  return FIELD_LABELS[field] ?? field
}

/** One line of a value in the diff; `changed` when the other side has no such line. */
export interface DiffLine {
  text: string
  changed: boolean
}

interface Offer {
  supplier: string
  sku: string | null
  stock: number | null
  currency: string | null
  priceBreaks: Array<{ quantity: number; price: number }>
}

/**
 * A field's value (what `POST …/enrich` answers as `current` or `proposed`)
 * as lines of text: one per MPN, parameter or offer, so a list's diff shows
 * which entries are new rather than two walls of text. An offer leaves out
 * when it was fetched: that differs on every ask.
 */
export function valueLines(field: string, value: unknown): string[] {
  if (value === null || value === undefined || value === '') return []
  if (!Array.isArray(value)) return [String(value)]
  return value.map((item: unknown) => {
    const o = item as Record<string, unknown>
    if (field === 'mpns') return `${String(o.partNumber)} (${String(o.manufacturer)})`
    if (field === 'parameters') return `${String(o.type)}: ${String(o.value)}${o.unit ? ` ${String(o.unit)}` : ''}`
    if (field === 'offers') return offerLine(item as Offer)
    return JSON.stringify(item)
  })
}

/** "Mouser 595-LM358DR: 12,345 in stock; 1+ $0.52, 10+ $0.366". */
export function offerLine(o: Offer): string {
  const stock = o.stock === null ? 'stock not given' : `${count(o.stock)} in stock`
  const breaks = o.priceBreaks.map((b) => `${count(b.quantity)}+ ${price(b.price, o.currency)}`).join(', ')
  return `${o.supplier}${o.sku ? ` ${o.sku}` : ''}: ${stock}${breaks ? `; ${breaks}` : ''}`
}

/** Both sides of a field as lines, each marked when the other side lacks it. */
export function diffLines(field: string, current: unknown, proposed: unknown): { current: DiffLine[]; proposed: DiffLine[] } {
  const before = valueLines(field, current)
  const after = valueLines(field, proposed)
  return {
    current: before.map((text) => ({ text, changed: !after.includes(text) })),
    proposed: after.map((text) => ({ text, changed: !before.includes(text) })),
  }
}
