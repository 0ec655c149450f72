import { ComplibError } from '../../errors'
import type { Component } from '../../schemas/component'
import { parseSiNumber } from '../../si-number'
import type { SqlExecutor, SqlParam } from '../_internal/sql-executor'
import type { SearchStore, SuggestEntity, Suggestion } from '../types'
import { pageById } from './_shared'
import { loadComponentList } from './component-core'
import type { StoreAccess, StoreRepo } from './repo'
import { finish, toNeedle } from './search-rank'
import { suggestSimple } from './search-simple'

const ENTITIES: readonly SuggestEntity[] = ['components', 'symbols', 'footprints', 'manufacturers', 'tags', 'locations', 'mpns']

export const search = {
  suggest: async (ex, entity, q, limit) => await _suggest(ex, entity, q, limit),

  async search(ex, q, limitPerGroup) {
    const groups: Partial<Record<SuggestEntity, Suggestion[]>> = {}
    for (const entity of ENTITIES) groups[entity] = await _suggest(ex, entity, q, limitPerGroup)
    return groups as Record<SuggestEntity, Suggestion[]>
  },

  async parametric(ex, conditions, page) {
    const where = ['deleted_at IS NULL']
    const params: SqlParam[] = []
    conditions.forEach((cond, i) => {
      const parts = ['p.component_id = components.id', 'p.type = ?']
      params.push(cond.type)
      if (cond.eq !== undefined) {
        parts.push(`${ex.dialect.nocase('p.value')} = ${ex.dialect.nocase('?')}`)
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
      where.push(`EXISTS (SELECT 1 FROM component_parameters p${ex.dialect.indexedBy('component_parameters_component')} WHERE ${parts.join(' AND ')})`)
    })
    return await pageById<{ id: string }, Component>(ex, { table: 'components', where, params, limit: page.limit, cursor: page.cursor, map: async (rows) => await loadComponentList(ex, rows.map((r) => r.id)) })
  },
} satisfies StoreRepo<SearchStore>

/** How each method uses the database (Access). */
export const searchAccess = { suggest: 'free', search: 'free', parametric: 'snapshot' } as const satisfies StoreAccess<SearchStore>

async function _suggest(ex: SqlExecutor, entity: SuggestEntity, q: string, limit: number): Promise<Suggestion[]> {
  const needle = toNeedle(q)
  if (!needle) return []
  if (entity === 'components') return finish(await ex.dialect.componentCandidates(ex, needle, limit), needle, limit)
  if (entity === 'mpns') return finish(await ex.dialect.mpnCandidates(ex, needle, limit), needle, limit)
  return await suggestSimple(ex, entity, needle, limit)
}
