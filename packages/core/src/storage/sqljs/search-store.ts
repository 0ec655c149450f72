import { ComplibError } from '../../errors'
import type { Component } from '../../schemas'
import { parseSiNumber } from '../../si-number'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { SearchStore, SuggestEntity, Suggestion } from '../types'
import { likeEscape, pageById } from './_shared'
import { loadComponentList } from './component-core'
import { toFtsMatch } from './component-query'
import type { SyncRepo } from './repo'

const ENTITIES: readonly SuggestEntity[] = ['components', 'symbols', 'footprints', 'manufacturers', 'tags', 'locations', 'mpns']

export const search = {
  suggest: (ex, entity, q, limit) => _suggest(ex, entity, q, limit),

  search(ex, q, limitPerGroup) {
    return Object.fromEntries(ENTITIES.map((e) => [e, _suggest(ex, e, q, limitPerGroup)])) as Record<SuggestEntity, Suggestion[]>
  },

  parametric(ex, conditions, page) {
    const where = ['deleted_at IS NULL']
    const params: SqlParam[] = []
    conditions.forEach((cond, i) => {
      const parts = ['p.component_id = components.id', 'p.type = ?']
      params.push(cond.type)
      if (cond.eq !== undefined) {
        parts.push('p.value = ? COLLATE NOCASE')
        params.push(cond.eq)
      }
      for (const bound of ['min', 'max'] as const) {
        const raw = cond[bound]
        if (raw === undefined) continue
        const n = typeof raw === 'number' ? raw : parseSiNumber(raw)
        if (n === null || !Number.isFinite(n)) {
          const path = `body.conditions[${i}].${bound}`
          throw new ComplibError('VALIDATION_FAILED', `${path}: ${JSON.stringify(raw)} is not a number (SI prefixes like 10k or 100n are fine)`, {
            errors: [{ path, message: 'not a number' }],
          })
        }
        parts.push(`p.numeric ${bound === 'min' ? '>=' : '<='} ?`)
        params.push(n)
      }
      where.push(`EXISTS (SELECT 1 FROM component_parameters p WHERE ${parts.join(' AND ')})`)
    })
    return pageById<{ id: string }, Component>(ex, { table: 'components', where, params, limit: page.limit, cursor: page.cursor, map: (rows) => loadComponentList(ex, rows.map((r) => r.id)) })
  },
} satisfies SyncRepo<SearchStore>

interface _Candidate extends Suggestion {
  /** The record's own fields (name, ipn, part numbers): a prefix of one ranks first. */
  texts: string[]
  /** Other text the words may be found in (a description). */
  extra?: string[]
}

function _suggest(ex: SqlExecutor, entity: SuggestEntity, q: string, limit: number): Suggestion[] {
  const needle = q.trim()
  if (!needle) return []
  const candidates = entity === 'components' ? _componentCandidates(ex, needle, limit) : entity === 'mpns' ? _mpnCandidates(ex, needle, limit) : _simpleCandidates(ex, entity, needle)
  const lower = needle.toLowerCase()
  const queryWords = lower.split(/\s+/).filter(Boolean)
  const rank = (c: _Candidate) => {
    const texts = c.texts.map((t) => t.toLowerCase())
    if (texts.some((t) => t.startsWith(lower))) return 0
    // Every word of the query starts a word somewhere in the record ("resistor 0603").
    const words = [...texts, ...(c.extra ?? []).map((t) => t.toLowerCase())].flatMap((t) => t.split(/[^\p{L}\p{N}]+/u))
    if (queryWords.every((q) => words.some((w) => w.startsWith(q.replace(/[^\p{L}\p{N}]+/gu, ''))))) return 1
    return texts.some((t) => t.includes(lower)) ? 2 : 3
  }
  const unique = new Map<string, _Candidate & { r: number }>()
  for (const c of candidates) {
    const r = rank(c)
    if (r < 3 && !unique.has(c.id)) unique.set(c.id, { ...c, r })
  }
  return [...unique.values()]
    .sort((a, b) => a.r - b.r || a.label.length - b.label.length || a.label.localeCompare(b.label) || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map(({ id, entity: e, label, detail }) => (detail === undefined ? { id, entity: e, label } : { id, entity: e, label, detail }))
}

/**
 * Components: index range scans for whole-field prefixes (name, ipn, part
 * number), the FTS table for word prefixes, and a bounded LIKE scan only when
 * those found fewer than `limit`.
 */
function _componentCandidates(ex: SqlExecutor, q: string, limit: number): _Candidate[] {
  const hi = `${q}\uffff`
  const take = Math.max(limit * 4, 20)
  const ids = new Set<string>()
  const add = (rows: { id: string }[]) => rows.forEach((r) => ids.add(r.id))
  add(ex.all(`SELECT id FROM components WHERE name COLLATE NOCASE >= ? AND name COLLATE NOCASE < ? AND deleted_at IS NULL LIMIT ?`, [q, hi, take]))
  add(ex.all(`SELECT id FROM components WHERE ipn >= ? AND ipn < ? AND deleted_at IS NULL LIMIT ?`, [q, hi, take]))
  add(ex.all(`SELECT c.id AS id FROM mpns m JOIN components c ON c.id = m.component_id WHERE m.part_number >= ? AND m.part_number < ? AND c.deleted_at IS NULL LIMIT ?`, [q, hi, take]))
  if (ids.size < limit) {
    const match = toFtsMatch(q)
    if (match) add(ex.all(`SELECT c.id AS id FROM components_fts f JOIN components c ON c.rowid = f.docid WHERE components_fts MATCH ? AND c.deleted_at IS NULL LIMIT ?`, [match, take]))
  }
  if (ids.size < limit) {
    const like = `%${likeEscape(q)}%`
    add(ex.all(`SELECT id FROM components WHERE (name LIKE ? ESCAPE '\\' OR ipn LIKE ? ESCAPE '\\') AND deleted_at IS NULL LIMIT ?`, [like, like, take]))
  }
  if (ids.size === 0) return []
  const list = [...ids]
  const rows = ex.all<{ id: string; name: string; ipn: string; description: string | null; pns: string | null }>(
    `SELECT c.id, c.name, c.ipn, c.description, (SELECT group_concat(part_number, char(10)) FROM mpns WHERE component_id = c.id) AS pns FROM components c WHERE c.id IN (${list.map(() => '?').join(', ')})`,
    list,
  )
  return rows.map((r) => ({
    id: r.id,
    entity: 'components',
    label: r.name,
    detail: r.ipn,
    texts: [r.name, r.ipn, ...(r.pns ? r.pns.split('\n') : [])],
    extra: r.description ? [r.description] : [],
  }))
}

function _mpnCandidates(ex: SqlExecutor, q: string, limit: number): _Candidate[] {
  const take = Math.max(limit * 4, 20)
  const select = `SELECT m.id, m.part_number, f.name AS manufacturer, c.ipn FROM mpns m JOIN manufacturers f ON f.id = m.manufacturer_id JOIN components c ON c.id = m.component_id`
  let rows = ex.all<{ id: string; part_number: string; manufacturer: string; ipn: string }>(`${select} WHERE m.part_number >= ? AND m.part_number < ? AND c.deleted_at IS NULL LIMIT ?`, [
    q,
    `${q}\uffff`,
    take,
  ])
  if (rows.length < limit) rows = rows.concat(ex.all(`${select} WHERE m.part_number LIKE ? ESCAPE '\\' AND c.deleted_at IS NULL LIMIT ?`, [`%${likeEscape(q)}%`, take]))
  return rows.map((r) => ({ id: r.id, entity: 'mpns', label: r.part_number, detail: `${r.manufacturer} · ${r.ipn}`, texts: [r.part_number] }))
}

/** Symbols, footprints, manufacturers, tags, locations: small tables, a bounded substring scan. */
function _simpleCandidates(ex: SqlExecutor, entity: Exclude<SuggestEntity, 'components' | 'mpns'>, q: string): _Candidate[] {
  const like = `%${likeEscape(q)}%`
  switch (entity) {
    case 'symbols':
    case 'footprints':
      return ex
        .all<{ id: string; name: string; library: string | null }>(`SELECT id, name, library FROM ${entity} WHERE name LIKE ? ESCAPE '\\' LIMIT 500`, [like])
        .map((r) => ({ id: r.id, entity, label: r.name, detail: r.library ?? undefined, texts: [r.name] }))
    case 'manufacturers':
      return ex
        .all<{ id: string; name: string; aliases: string }>(`SELECT id, name, aliases FROM manufacturers WHERE name LIKE ? ESCAPE '\\' OR aliases LIKE ? ESCAPE '\\' LIMIT 500`, [like, like])
        .map((r) => ({ id: r.id, entity, label: r.name, texts: [r.name, ...(JSON.parse(r.aliases) as string[])] }))
    case 'tags':
      return ex
        .all<{ id: string; name: string; n: number }>(
          `SELECT t.id, t.name, (SELECT count(*) FROM component_tags ct JOIN components c ON c.id = ct.component_id WHERE ct.tag_id = t.id AND c.deleted_at IS NULL) AS n FROM tags t WHERE t.name LIKE ? ESCAPE '\\' LIMIT 500`,
          [like],
        )
        .map((r) => ({ id: r.id, entity, label: r.name, detail: `${r.n} components`, texts: [r.name] }))
    case 'locations': {
      const all = ex.all<{ id: string; name: string; parent_id: string | null }>('SELECT id, name, parent_id FROM locations')
      const byId = new Map(all.map((r) => [r.id, r]))
      const path = (id: string): string => {
        const parts: string[] = []
        for (let at = byId.get(id); at && parts.length < 64; at = at.parent_id ? byId.get(at.parent_id) : undefined) parts.unshift(at.name)
        return parts.join(' / ')
      }
      return all.filter((r) => r.name.toLowerCase().includes(q.toLowerCase())).map((r) => ({ id: r.id, entity, label: r.name, detail: path(r.id), texts: [r.name] }))
    }
  }
}
