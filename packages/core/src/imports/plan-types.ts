import type * as z from 'zod'
import type { ComponentCreate, ComponentPatch } from '../schemas/component'
import type { FieldChange } from './changes'
import type { SupplierOffer } from '../schemas/source'
import type { LibRef, LinkInput, StockInput } from './row-input'

export interface ImportRowError {
  row: number
  path: string
  /** The column the error comes from, when the error is about one cell. */
  column?: string
  message: string
}
/** What a component gets besides its fields: links found or made at commit, stock, attachment links. */
export interface PlannedExtras {
  symbols?: LibRef[]
  footprints?: LibRef[]
  stock?: StockInput[]
  attachments?: LinkInput[]
  /** The supplier offers the peer holds for the part, kept under the import's source (decision 1609). */
  offers?: SupplierOffer[]
}
export type PlannedRow = (
  | { row: number; action: 'create'; componentId: null; input: z.output<typeof ComponentCreate> }
  | {
      row: number
      action: 'update'
      componentId: string
      input: z.output<typeof ComponentPatch>
      /** What the update changes; empty when the part is already as the file says (the commit leaves it alone). Absent in plans stored before. */
      changes?: FieldChange[]
      /** The ipn and name of the component updated, as stored. */
      current?: { ipn: string; name: string }
    }
) & {
  /** Every row of the file that went into this component (rows of the same part merge). */
  rows: number[]
  extras: PlannedExtras
  /** The row's own key in the peer's database, kept as the component's ref at commit; `held` when the ref already names it (decision 0640). */
  sourceRef?: { source: string; key: string; held: boolean }
}
