import { Component, ParametricCondition } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'

const ENTITIES = ['components', 'symbols', 'footprints', 'manufacturers', 'tags', 'locations', 'mpns'] as const
const Suggestion = z
  .object({ id: z.string(), entity: z.enum(ENTITIES), label: z.string(), detail: z.string().optional() })
  .meta({ id: 'Suggestion' })

export const searchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/suggest',
    group: 'search',
    operationId: 'suggest',
    summary: 'Suggestions as you type, best match first',
    description: 'A field that starts with `q` ranks before a word that does, before `q` anywhere. Deleted components never appear.',
    query: z.object({
      entity: z.enum(ENTITIES),
      q: z.string().min(1).max(200),
      limit: z.coerce.number().int().min(1).max(20).default(5),
    }),
    responses: { 200: { description: 'Suggestions', schema: z.array(Suggestion) } },
    handler: ({ query, services }) => services.storage.search.suggest(query.entity, query.q, query.limit),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/search',
    group: 'search',
    operationId: 'search',
    summary: 'Search everything, grouped by kind',
    query: z.object({ q: z.string().min(1).max(200), limit: z.coerce.number().int().min(1).max(50).default(10) }),
    responses: {
      200: { description: 'Matches per kind', schema: z.object(Object.fromEntries(ENTITIES.map((e) => [e, z.array(Suggestion)])) as Record<(typeof ENTITIES)[number], z.ZodArray<typeof Suggestion>>).meta({ id: 'SearchResults' }) },
    },
    handler: ({ query, services }) => services.storage.search.search(query.q, query.limit),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/search/parametric',
    group: 'search',
    operationId: 'searchParametric',
    summary: 'Components whose parameters meet every condition',
    description: 'Numbers compare with SI prefixes: `{ "type": "Resistance", "min": "1k", "max": "10k" }`.',
    body: z
      .strictObject({
        conditions: z.array(ParametricCondition).min(1).max(20),
        limit: z.int().min(1).max(1000).default(100),
        cursor: z.string().min(1).max(500).optional(),
      })
      .meta({ id: 'ParametricSearch' }),
    responses: {
      200: {
        description: 'A page of components',
        schema: z.object({ items: z.array(Component), total: z.int(), nextCursor: z.string().nullable() }).meta({ id: 'ComponentPage' }),
      },
    },
    handler: ({ body, services }) => services.storage.search.parametric(body.conditions, { limit: body.limit, cursor: body.cursor }),
  }),
]
