import * as z from 'zod'
import { Component } from './component'
import { ParametricCondition } from './parameter'

/** What `GET /api/suggest` can suggest. */
export const SUGGEST_ENTITIES = ['components', 'symbols', 'footprints', 'manufacturers', 'tags', 'locations', 'mpns'] as const
export const SuggestEntity = z.enum(SUGGEST_ENTITIES)
export type SuggestEntity = z.infer<typeof SuggestEntity>

/** One suggestion: what to show (`label`, `detail`) and what it points at (`entity`, `id`). */
export const Suggestion = z
  .object({ id: z.string(), entity: SuggestEntity, label: z.string(), detail: z.string().optional() })
  .meta({ id: 'Suggestion' })
export type Suggestion = z.infer<typeof Suggestion>

/** Query of `GET /api/suggest` (seed: `q` 1–200 characters, `limit` 1–20, default 5). */
export const SuggestQuery = z.object({
  entity: SuggestEntity,
  q: z.string().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(20).default(5),
})
export type SuggestQuery = z.input<typeof SuggestQuery>

/** Query of `GET /api/search`. */
export const SearchQuery = z.object({ q: z.string().min(1).max(200), limit: z.coerce.number().int().min(1).max(50).default(10) })
export type SearchQuery = z.input<typeof SearchQuery>

/** `GET /api/search`: matches per kind, best first. */
export const SearchResults = z
  .object(Object.fromEntries(SUGGEST_ENTITIES.map((e) => [e, z.array(Suggestion)])) as Record<SuggestEntity, z.ZodArray<typeof Suggestion>>)
  .meta({ id: 'SearchResults' })
export type SearchResults = z.infer<typeof SearchResults>

/** Body of `POST /api/search/parametric`. */
export const ParametricSearch = z
  .strictObject({
    conditions: z.array(ParametricCondition).min(1).max(20),
    limit: z.int().min(1).max(1000).default(100),
    cursor: z.string().min(1).max(500).optional(),
  })
  .meta({ id: 'ParametricSearch' })
export type ParametricSearch = z.input<typeof ParametricSearch>

/** A page of components in a body (where a JSON array with paging headers does not fit, e.g. a POST search). */
export const ComponentPage = z.object({ items: z.array(Component), total: z.int(), nextCursor: z.string().nullable() }).meta({ id: 'ComponentPage' })
export type ComponentPage = z.infer<typeof ComponentPage>
