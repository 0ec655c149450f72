import type { ComponentPage, ParametricSearch, SearchQuery, SearchResults, SuggestEntity, SuggestQuery, Suggestion } from '@complib/core'
import type { Transport } from '../_internal/transport'
import type { QueryOf } from '../_internal/types'

/**
 * `client.suggest(entity, q)`, `client.search(q)`, `client.searchParametric(…)`.
 * Suggestions come best first: a field starting with `q`, then a word that does, then `q` anywhere.
 */
export function createSearchMethods(t: Transport) {
  return {
    /**
     * @example
     * const [best] = await client.suggest('components', 'rc06', { limit: 3 })
     */
    suggest: (entity: SuggestEntity, q: string, options: Omit<QueryOf<typeof SuggestQuery>, 'entity' | 'q'> = {}): Promise<Suggestion[]> =>
      t.call('GET', '/suggest', { query: { entity, q, ...options } }),
    /** Matches of every kind, grouped by kind. */
    search: (q: string, options: Omit<QueryOf<typeof SearchQuery>, 'q'> = {}): Promise<SearchResults> => t.call('GET', '/search', { query: { q, ...options } }),
    /**
     * Components whose parameters meet every condition; numbers compare with SI prefixes.
     * A POST that only reads, so it is retried like a GET.
     *
     * @example
     * await client.searchParametric({ conditions: [{ type: 'Resistance', min: '1k', max: '10k' }] })
     */
    searchParametric: (body: ParametricSearch): Promise<ComponentPage> => t.call('POST', '/search/parametric', { body, idempotent: true }),
  }
}
