import type { SqlExecutor } from '../_internal/sql-executor'
import { chunks, placeholders } from './_shared'
import type { Candidate } from './search-rank'

// The candidates both engines' search tiers read (sqlite/search.ts, postgres/search.ts), ranked by search-rank.ts.

/** Components as suggestion candidates (name, ipn and part numbers ranked; the description for words). Both engines. */
export async function loadComponentCandidates(ex: SqlExecutor, ids: readonly string[]): Promise<Candidate[]> {
  const out: Candidate[] = []
  for (const part of chunks(ids)) out.push(...await componentCandidateRows(ex, `c.id IN (${placeholders(part.length)})`, part))
  return out
}

/** Components matching `where` (over `components c`) as suggestion candidates. Both engines. */
export async function componentCandidateRows(ex: SqlExecutor, where: string, params: readonly (string | number)[]): Promise<Candidate[]> {
  const rows = await ex.all<{ id: string; name: string; ipn: string; description: string | null; pns: string }>(
    `SELECT c.id, c.name, c.ipn, c.description, ${ex.dialect.jsonText(ex.dialect.jsonArrayOf('part_number', 'position', 'FROM mpns WHERE component_id = c.id'))} AS pns
     FROM components c WHERE ${where}`,
    params,
  )
  return rows.map((r) => ({ id: r.id, entity: 'components', label: r.name, detail: r.ipn, texts: [r.name, r.ipn, ...(JSON.parse(r.pns) as string[])], extra: r.description ? [r.description] : [] }))
}

/** MPNs matching `where` as suggestion candidates, with their manufacturer and component. Both engines. */
export async function mpnCandidateRows(ex: SqlExecutor, where: string, params: (string | number)[]): Promise<Candidate[]> {
  return (await ex.all<{ id: string; part_number: string; manufacturer: string; ipn: string }>(
      `SELECT m.id, m.part_number, f.name AS manufacturer, c.ipn FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id WHERE ${where}`,
      params,
      ))
    .map((r) => ({ id: r.id, entity: 'mpns', label: r.part_number, detail: `${r.manufacturer} · ${r.ipn}`, texts: [r.part_number] }))
}
