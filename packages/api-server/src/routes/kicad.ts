import { ComplibError, type Component, type Storage } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'

/**
 * KiCad's HTTP library (Preferences → Manage Symbol Libraries, a
 * `.kicad_httplib` file with root_url `http://127.0.0.1:4000/api/kicad` and
 * api_version `v1`). KiCad reads categories, the parts of each, and one part's
 * fields; symbols and footprints are referenced as `library:name` from the
 * libraries KiCad already has. Only components with a category appear.
 */

const Category = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'KicadCategory' })
const PartSummary = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'KicadPartSummary' })
const Field = z.object({ value: z.string(), visible: z.enum(['True', 'False']).optional() })
const Part = z
  .object({
    id: z.string(),
    name: z.string(),
    symbolIdStr: z.string(),
    exclude_from_bom: z.enum(['True', 'False']),
    exclude_from_board: z.enum(['True', 'False']),
    exclude_from_sim: z.enum(['True', 'False']),
    fields: z.record(z.string(), Field),
  })
  .meta({ id: 'KicadPart' })
const JsonFile = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,200}\.json$/, { error: 'expected <id>.json' }) })

export const kicadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/',
    group: 'kicad',
    operationId: 'kicadRoot',
    summary: 'KiCad HTTP library: the endpoints it may use',
    responses: { 200: { description: 'Endpoint map', schema: z.object({ categories: z.string(), parts: z.string() }).meta({ id: 'KicadRoot' }) } },
    handler: () => ({ categories: '', parts: '' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/categories.json',
    group: 'kicad',
    operationId: 'kicadCategories',
    summary: 'KiCad HTTP library: categories of live components',
    responses: { 200: { description: 'Categories', schema: z.array(Category) } },
    handler: async ({ services }) =>
      (await services.storage.components.categories()).map((c) => ({ id: _categoryId(c.name), name: c.name, description: `${c.count} parts` })),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/parts/category/{file}',
    group: 'kicad',
    operationId: 'kicadCategoryParts',
    summary: 'KiCad HTTP library: the parts of a category (`{id}.json`)',
    params: JsonFile,
    responses: { 200: { description: 'Parts', schema: z.array(PartSummary) } },
    handler: async ({ params, services }) => {
      const name = _categoryName(params.file.slice(0, -5))
      const known = (await services.storage.components.categories()).find((c) => c.name.toLowerCase() === name.toLowerCase())
      if (!known) throw new ComplibError('NOT_FOUND', `no category ${params.file}`)
      const out: z.infer<typeof PartSummary>[] = []
      for await (const c of _all(services.storage, known.name)) out.push({ id: c.id, name: c.ipn, description: c.description ?? c.name })
      return out
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/parts/{file}',
    group: 'kicad',
    operationId: 'kicadPart',
    summary: 'KiCad HTTP library: one part with its fields (`{id}.json`)',
    params: JsonFile,
    responses: { 200: { description: 'The part', schema: Part } },
    handler: async ({ params, services, url }) => {
      const id = params.file.slice(0, -5)
      if (!/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) throw new ComplibError('NOT_FOUND', `no part ${params.file}`)
      const c = await services.storage.components.get(id)
      const symbol = c.symbols[0] ? await services.storage.symbols.get(c.symbols[0].id) : undefined
      const footprint = c.footprints[0] ? await services.storage.footprints.get(c.footprints[0].id) : undefined
      return toKicadPart(c, { symbol: symbol && _libId(symbol), footprint: footprint && _libId(footprint), origin: url.origin })
    },
  }),
]

/** A component as KiCad's HTTP library part. */
export function toKicadPart(c: Component, refs: { symbol?: string | undefined; footprint?: string | undefined; origin: string }): z.infer<typeof Part> {
  const datasheet = c.attachments.find((a) => /\.pdf$/i.test(a.name))
  const valueParam = c.parameters.find((p) => p.type.toLowerCase() === 'value') ?? c.parameters[0]
  const hidden = (value: string) => ({ value, visible: 'False' as const })
  const fields: Record<string, z.infer<typeof Field>> = {
    value: { value: valueParam ? `${valueParam.value}${valueParam.unit ?? ''}` : c.name },
    reference: { value: _reference(c) },
    footprint: hidden(refs.footprint ?? ''),
    datasheet: hidden(datasheet ? `${refs.origin}/api/attachments/${datasheet.id}/content` : ''),
    description: hidden(c.description ?? c.name),
    keywords: hidden(c.tags.join(' ')),
    IPN: hidden(c.ipn),
  }
  if (c.mpns[0]) {
    fields.Manufacturer = hidden(c.mpns[0].manufacturer)
    fields.MPN = hidden(c.mpns[0].partNumber)
  }
  for (const p of c.parameters) if (!(p.type in fields)) fields[p.type] = hidden(`${p.value}${p.unit ?? ''}`)
  return {
    id: c.id,
    name: c.ipn,
    symbolIdStr: refs.symbol ?? '',
    exclude_from_bom: 'False',
    exclude_from_board: 'False',
    exclude_from_sim: c.status === 'draft' ? 'True' : 'False',
    fields,
  }
}

async function* _all(storage: Storage, category: string): AsyncGenerator<Component> {
  let cursor: string | undefined
  do {
    const page = await storage.components.list({ category, limit: 1000, cursor, sort: 'ipn', includeDeleted: false })
    yield* page.items
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

/** KiCad names a library entry `Library:Name`. */
function _libId(item: { library: string | null; name: string }): string {
  return item.library ? `${item.library}:${item.name}` : item.name
}

/** Category ids are their names in base64url: stable, URL-safe, and no table to keep. */
function _categoryId(name: string): string {
  return Buffer.from(name.toLowerCase(), 'utf8').toString('base64url')
}
function _categoryName(id: string): string {
  return Buffer.from(id, 'base64url').toString('utf8')
}

const REFERENCES: Array<[RegExp, string]> = [
  [/resistor|^res/i, 'R'],
  [/capacitor|^cap/i, 'C'],
  [/inductor|ferrite|^ind/i, 'L'],
  [/diode|led/i, 'D'],
  [/transistor|mosfet|fet\b/i, 'Q'],
  [/connector|header/i, 'J'],
  [/crystal|oscillator/i, 'Y'],
  [/fuse/i, 'F'],
  [/switch|button/i, 'SW'],
]

function _reference(c: Component): string {
  const given = c.parameters.find((p) => p.type.toLowerCase() === 'reference')
  if (given) return given.value
  return REFERENCES.find(([re]) => re.test(c.category ?? ''))?.[1] ?? 'U'
}
