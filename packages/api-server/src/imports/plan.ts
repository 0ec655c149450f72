import { ComplibError, ComponentCreate, ComponentPatch, foldKey, type ImportTarget, type StorageSession, type UpsertKey } from '@complib/core'
import * as z from 'zod'
import { createYielder } from '../_internal/yielder'
import { cellOf, type ImportRow } from './read-rows'


export interface ImportRowError {
  row: number
  path: string
  message: string
}
export type PlannedRow =
  | { row: number; action: 'create'; componentId: null; input: z.output<typeof ComponentCreate> }
  | { row: number; action: 'update'; componentId: string; input: z.output<typeof ComponentPatch> }
export interface ImportPlan {
  rows: PlannedRow[]
  errors: ImportRowError[]
}

const GUESSES: Array<[RegExp, ImportTarget]> = [
  [/^(name|title|part name)$/i, 'name'],
  [/^(ipn|internal part number|part id)$/i, 'ipn'],
  [/^(description|desc)$/i, 'description'],
  [/^(status|lifecycle)$/i, 'status'],
  [/^(category|type|class)$/i, 'category'],
  [/^(tags|labels|keywords)$/i, 'tags'],
  [/^(manufacturer|mfr|maker|brand)$/i, 'manufacturer'],
  [/^(mpn|part ?number|manufacturer part number|mfr ?pn)$/i, 'partNumber'],
  [/^(id|created ?at|updated ?at|deleted ?at|version)$/i, 'ignore'],
]

/** A first mapping: known names map to their field; any other column becomes a parameter. */
export function guessMapping(columns: string[]): Record<string, ImportTarget> {
  const mapping: Record<string, ImportTarget> = Object.create(null)
  for (const c of columns) mapping[c] = GUESSES.find(([re]) => re.test(c))?.[1] ?? 'parameter'
  return mapping
}

/**
 * Turns rows into planned creates and updates under a mapping. Every row is
 * validated with the same schema as `POST /api/components`; errors name the
 * row (1-based, as a spreadsheet shows it after the header) and the field.
 * Gives other requests a turn now and then (createYielder).
 */
export async function planImport(storage: StorageSession, rows: ImportRow[], mapping: Record<string, ImportTarget>, upsertKey: UpsertKey): Promise<ImportPlan> {
  const planned: PlannedRow[] = []
  const errors: ImportRowError[] = []
  const seenKeys = new Map<string, number>()
  const yieldTurn = createYielder()
  for (const [i, cells] of rows.entries()) {
    await yieldTurn()
    const row = i + 2
    const raw = _toInput(cells, mapping)
    const mpn = (raw.mpns as Array<{ manufacturer: string; partNumber: string }> | undefined)?.[0]
    // Compared as the database compares identifiers (foldKey), so lookalikes in one file are a row error here, not a 409 at commit.
    const key = upsertKey === 'ipn' ? (typeof raw.ipn === 'string' ? foldKey(raw.ipn) : undefined) : mpn && `${foldKey(mpn.manufacturer)}\u0000${foldKey(mpn.partNumber)}`
    const keyField = upsertKey === 'ipn' ? 'ipn' : 'partNumber'
    if (!key) {
      errors.push({ row, path: keyField, message: `the upsert key (${upsertKey}) is empty` })
      continue
    }
    if (seenKeys.has(key)) {
      errors.push({ row, path: keyField, message: `same ${upsertKey} as row ${seenKeys.get(key)}` })
      continue
    }
    seenKeys.set(key, row)
    // An existing component is patched (only the mapped fields change); a new one must be a whole component.
    const existing = await _findExisting(storage, raw.ipn as string | undefined, mpn, upsertKey)
    const parsed = existing ? ComponentPatch.safeParse(raw) : ComponentCreate.safeParse(raw)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push({ row, path: issue.path.join('.') || '(row)', message: issue.message })
      continue
    }
    planned.push(existing ? { row, action: 'update', componentId: existing, input: parsed.data } : { row, action: 'create', componentId: null, input: parsed.data as z.output<typeof ComponentCreate> })
  }
  return { rows: planned, errors }
}

/** Applies a plan inside the caller's transaction (`tx`), so that it lands whole or not at all. */
export async function applyImport(tx: StorageSession, plan: PlannedRow[]): Promise<{ created: number; updated: number }> {
  let created = 0
  let updated = 0
  const yieldTurn = createYielder()
  for (const p of plan) {
    await yieldTurn()
    try {
      if (p.action === 'create') {
        await tx.components.create(p.input)
        created++
      } else {
        await tx.components.update(p.componentId, p.input)
        updated++
      }
    } catch (error) {
      const e = error as ComplibError
      throw new ComplibError(e.code ?? 'INTERNAL', `row ${p.row}: ${e.detail ?? String(error)}`, { errors: [{ path: `rows[${p.row}]`, message: e.detail ?? String(error) }], cause: error })
    }
  }
  return { created, updated }
}

function _toInput(cells: ImportRow, mapping: Record<string, ImportTarget>): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  const parameters: Array<{ type: string; value: string }> = []
  let manufacturer = ''
  let partNumber = ''
  for (const [column, target] of Object.entries(mapping)) {
    const value = cellOf(cells, column).trim()
    if (target === 'ignore' || value === '') continue
    if (target === 'parameter') parameters.push({ type: column, value })
    else if (target === 'tags') input.tags = value.split(/[;,|]/).map((t) => t.trim()).filter(Boolean)
    else if (target === 'manufacturer') manufacturer = value
    else if (target === 'partNumber') partNumber = value
    else input[target] = value
  }
  if (parameters.length) input.parameters = parameters
  if (partNumber) input.mpns = [{ manufacturer: manufacturer || 'Unknown', partNumber }]
  return input
}

async function _findExisting(storage: StorageSession, ipn: string | undefined, mpn: { manufacturer: string; partNumber: string } | undefined, key: UpsertKey): Promise<string | null> {
  if (key === 'ipn') {
    try {
      return (await storage.components.getByIpn(ipn!)).id
    } catch (error) {
      if ((error as ComplibError).code === 'NOT_FOUND') return null
      throw error
    }
  }
  const [result] = await storage.mpns.resolve([{ partNumber: mpn!.partNumber, manufacturer: mpn!.manufacturer }])
  return result?.matches[0]?.componentId ?? null
}
