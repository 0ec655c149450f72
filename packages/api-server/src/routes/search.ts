import { ComponentPage, ParametricSearch, SearchQuery, SearchResults, SuggestQuery, Suggestion } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'

export const searchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/suggest',
    group: 'search',
    operationId: 'suggest',
    permission: 'library:read',
    summary: 'Suggestions as you type, best match first',
    description: 'A field that starts with `q` ranks first; then a record holding every word of `q` as a whole word, then one with a word starting with each, then `q` anywhere in a field. Ties go to the shorter label. Deleted components never appear.',
    query: SuggestQuery,
    responses: { 200: { description: 'Suggestions', schema: z.array(Suggestion) } },
    handler: ({ query, services }) => services.storage.search.suggest(query.entity, query.q, query.limit),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/search',
    group: 'search',
    operationId: 'search',
    permission: 'library:read',
    summary: 'Search everything, grouped by kind',
    query: SearchQuery,
    responses: {
      200: { description: 'Matches per kind', schema: SearchResults },
    },
    handler: ({ query, services }) => services.storage.search.search(query.q, query.limit),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/search/parametric',
    group: 'search',
    operationId: 'searchParametric',
    permission: 'library:read',
    // Changes nothing: not an entry of the audit trail.
    audit: false,
    summary: 'Components whose parameters meet every condition',
    description: 'Numbers compare with SI prefixes: `{ "type": "Resistance", "min": "1k", "max": "10k" }`.',
    body: ParametricSearch,
    responses: {
      200: {
        description: 'A page of components',
        schema: ComponentPage,
      },
    },
    handler: ({ body, services }) => services.storage.search.parametric(body.conditions, { limit: body.limit, cursor: body.cursor }),
  }),
]
