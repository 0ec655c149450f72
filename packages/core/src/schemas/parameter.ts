import * as z from 'zod'
import { idSchema } from '../ids'
import { Description, PageQuery, identifierSchema, recordFields } from './common'

/** A kind of parameter (`Resistance`, `Tolerance`, …) with its unit, used for parametric search. */
export const ParameterType = z
  .object({
    id: idSchema('parameterType'),
    name: z.string(),
    unit: z.string().nullable(),
    kind: z.enum(['number', 'text']),
    description: z.string().nullable(),
    ...recordFields,
  })
  .meta({ id: 'ParameterType' })
export type ParameterType = z.infer<typeof ParameterType>

const writable = {
  name: identifierSchema(100),
  unit: z.string().trim().min(1).max(32).nullable(),
  kind: z.enum(['number', 'text']),
  description: Description,
}
export const ParameterTypeCreate = z
  .strictObject({ name: writable.name, unit: writable.unit.optional(), kind: writable.kind.default('text'), description: writable.description.optional() })
  .meta({ id: 'ParameterTypeCreate' })
export type ParameterTypeCreate = z.input<typeof ParameterTypeCreate>
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
