import * as z from 'zod'
import { idSchema } from '../ids'
import { Description, PageQuery, identifierSchema, recordFields } from './common'

/**
 * What values a parameter type takes (decision 0440): `number` (a number with an
 * optional SI prefix and unit, `10k`, `4.7uF`, within `min`..`max` when set),
 * `choice` (one of `choices`, compared as identifiers are) or `text` (anything).
 */
export const ParameterKind = z.enum(['number', 'text', 'choice'])
export type ParameterKind = z.infer<typeof ParameterKind>

/** Most choices one parameter type lists. */
export const PARAMETER_MAX_CHOICES = 200

/** A kind of parameter (`Resistance`, `Tolerance`, …) with its unit, used for parametric search and checked on every write. */
export const ParameterType = z
  .object({
    id: idSchema('parameterType'),
    name: z.string(),
    unit: z.string().nullable(),
    kind: ParameterKind,
    choices: z.array(z.string()).nullable().meta({ description: 'The values a `choice` parameter takes, in order; null for other kinds' }),
    min: z.number().nullable().meta({ description: 'Smallest value of a `number` parameter (SI prefixes applied: 1k is 1000); null: no limit' }),
    max: z.number().nullable().meta({ description: 'Largest value of a `number` parameter; null: no limit' }),
    description: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'ParameterType' })
export type ParameterType = z.infer<typeof ParameterType>

const Choice = z.string().trim().min(1).max(100)
const writable = {
  name: identifierSchema(100),
  unit: z.string().trim().min(1).max(32).nullable(),
  kind: ParameterKind,
  choices: z.array(Choice).min(1).max(PARAMETER_MAX_CHOICES).nullable(),
  min: z.number().finite().nullable(),
  max: z.number().finite().nullable(),
  description: Description,
}
/** Body of `POST /api/parameter-types`. `choices` only with kind `choice` (and required there), `min`/`max` only with kind `number`, `min` ≤ `max`. */
export const ParameterTypeCreate = z
  .strictObject({
    name: writable.name,
    unit: writable.unit.optional(),
    kind: writable.kind.default('text'),
    choices: writable.choices.optional(),
    min: writable.min.optional(),
    max: writable.max.optional(),
    description: writable.description.optional(),
  })
  .meta({ id: 'ParameterTypeCreate' })
export type ParameterTypeCreate = z.input<typeof ParameterTypeCreate>
/** Body of `PATCH /api/parameter-types/:id`; the merged type obeys the rules of ParameterTypeCreate (checked by the store). */
export const ParameterTypePatch = z.strictObject(writable).partial().meta({ id: 'ParameterTypePatch' })
export type ParameterTypePatch = z.input<typeof ParameterTypePatch>

/** A parameter of one component, as its own record. `numeric` is `value` read as a number with SI prefix, when it is one. */
export const Parameter = z
  .object({
    id: idSchema('parameter'),
    componentId: idSchema('component'),
    type: z.string(),
    value: z.string(),
    unit: z.string().nullable(),
    numeric: z.number().nullable().meta({ description: '`10k` → 10000, `4.7u` → 0.0000047; null when not a number' }),
    ...recordFields,
  })
  .meta({ id: 'Parameter' })
export type Parameter = z.infer<typeof Parameter>

export const ParameterCreate = z
  .strictObject({
    type: z.string().trim().min(1).max(100),
    value: z.string().trim().max(500),
    unit: z.string().trim().max(32).nullable().optional(),
  })
  .meta({ id: 'ParameterCreate' })
export type ParameterCreate = z.input<typeof ParameterCreate>
export const ParameterPatch = ParameterCreate.partial().meta({ id: 'ParameterPatch' })
export type ParameterPatch = z.input<typeof ParameterPatch>

/** One condition of `POST /api/search/parametric`; all conditions must hold. */
export const ParametricCondition = z
  .strictObject({
    type: z.string().trim().min(1).max(100),
    eq: z.string().max(500).optional(),
    min: z.union([z.number(), z.string().max(50)]).optional(),
    max: z.union([z.number(), z.string().max(50)]).optional(),
  })
  .meta({ id: 'ParametricCondition' })
export type ParametricCondition = z.input<typeof ParametricCondition>

/** Query of `GET /api/parameter-types`. */
export const ParameterTypeListQuery = PageQuery.extend({ q: z.string().trim().min(1).max(100).optional() })
export type ParameterTypeListQuery = z.output<typeof ParameterTypeListQuery>

/** Query of `GET /api/parameter-types/report`: at most `limit` entries of each list (decision 0442). */
export const ParameterReportQuery = PageQuery.pick({ limit: true })
export type ParameterReportQuery = z.output<typeof ParameterReportQuery>

/** A component's parameter whose value its type does not take (kept as it was written). */
export const NonConformingParameter = z
  .object({
    componentId: idSchema('component'),
    ipn: z.string(),
    name: z.string(),
    type: z.string(),
    value: z.string(),
    reason: z.string().meta({ description: 'Why the value does not conform, as a write of it would be refused' }),
  })
  .meta({ id: 'NonConformingParameter' })
export type NonConformingParameter = z.infer<typeof NonConformingParameter>

/** A component that lacks parameters its category's templates require. */
export const MissingRequiredParameter = z
  .object({
    componentId: idSchema('component'),
    ipn: z.string(),
    name: z.string(),
    category: z.string(),
    missing: z.array(z.string()).meta({ description: 'The required parameter types it lacks' }),
  })
  .meta({ id: 'MissingRequiredParameter' })
export type MissingRequiredParameter = z.infer<typeof MissingRequiredParameter>

/**
 * Body of `GET /api/parameter-types/report` (decision 0442): what the library holds that
 * today's types and templates would refuse. Each list is cut at `limit`; its total counts all.
 */
export const ParameterReport = z
  .object({
    nonConforming: z.object({ items: z.array(NonConformingParameter), total: z.int() }),
    missingRequired: z.object({ items: z.array(MissingRequiredParameter), total: z.int() }),
  })
  .meta({ id: 'ParameterReport' })
export type ParameterReport = z.infer<typeof ParameterReport>
