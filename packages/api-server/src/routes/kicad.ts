import { ComplibError, foldKey, isId, type Component, type Storage } from '@complib/core'
import * as z from 'zod'
import { KicadPart as Part, toKicadPart } from '../kicad/fields'
import { defineRoute } from '../routing/define-route'

/**
 * KiCad's HTTP library (Preferences → Manage Symbol Libraries, a
 * `.kicad_httplib` file with root_url `http://127.0.0.1:4000/api/kicad` and
 * api_version `v1`). KiCad reads categories, the parts of each, and one part's
 * fields; symbols and footprints are referenced as `library:name` from the
 * libraries KiCad already has. Only components with a category appear.
 *
 * What KiCad reads (common/http_lib/http_lib_connection.cpp): every `id`,
 * `name` and field `value` a JSON string (a category's id is its record's,
 * so a rename keeps it); `symbolIdStr` a LIB_ID
 * `Library:Name`; the `exclude_from_*` flags and a field's `visible` strings
 * read by boolFromString; a footprint field may list several footprints
 * joined by `;`. test/kicad-conformance.test.ts checks these.
 *
 * With COMPLIB_KICAD_HIDE_OBSOLETE=1 obsolete parts are left out of the
 * categories and their lists (a part already placed still resolves by id).
 */

const Category = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'KicadCategory' })
const PartSummary = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'KicadPartSummary' })
const JsonFile = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,200}\.json$/, { error: 'expected <id>.json' }) })

export const kicadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/',
    group: 'kicad',
    operationId: 'kicadRoot',
    permission: 'library:read',
    summary: 'KiCad HTTP library: the endpoints it may use',
    responses: { 200: { description: 'Endpoint map', schema: z.object({ categories: z.string(), parts: z.string() }).meta({ id: 'KicadRoot' }) } },
    handler: () => ({ categories: '', parts: '' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/categories.json',
    group: 'kicad',
    operationId: 'kicadCategories',
    permission: 'library:read',
    summary: 'KiCad HTTP library: categories of live components',
    responses: { 200: { description: 'Categories', schema: z.array(Category) } },
    handler: async ({ services }) => {
      const out: z.infer<typeof Category>[] = []
      const ids = await _categoryIds(services.storage)
      for (const c of await services.storage.components.categories()) {
        const count = _hideObsolete() ? await _count(services.storage, c.name) : c.count
        const id = ids.get(foldKey(c.name))
        if (count > 0 && id) out.push({ id, name: c.name, description: `${count} ${count === 1 ? 'part' : 'parts'}` })
      }
      return out
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/parts/category/{file}',
    group: 'kicad',
    operationId: 'kicadCategoryParts',
    permission: 'library:read',
    summary: 'KiCad HTTP library: the parts of a category (`{id}.json`)',
    params: JsonFile,
    responses: { 200: { description: 'Parts', schema: z.array(PartSummary) } },
    handler: async ({ params, services }) => {
      const id = params.file.slice(0, -5)
      if (!isId('category', id)) throw new ComplibError('NOT_FOUND', `no category ${params.file}`)
      const record = await services.storage.categories.get(id)
      const known = (await services.storage.components.categories()).find((c) => foldKey(c.name) === foldKey(record.path))
      if (!known) throw new ComplibError('NOT_FOUND', `no parts in category ${params.file}`)
      const out: z.infer<typeof PartSummary>[] = []
      for await (const c of _all(services.storage, known.name)) {
        // A category lists its own parts; a sub-category (Passives/Resistors) is a category of its own in KiCad.
        if (c.category?.toLowerCase() !== known.name.toLowerCase() || (_hideObsolete() && c.status === 'obsolete')) continue
        out.push({ id: c.id, name: c.ipn, description: c.description ?? c.name })
      }
      return out
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/parts/{file}',
    group: 'kicad',
    operationId: 'kicadPart',
    permission: 'library:read',
    summary: 'KiCad HTTP library: one part with its fields (`{id}.json`)',
    params: JsonFile,
    responses: { 200: { description: 'The part', schema: Part } },
    handler: async ({ params, services, url }) => {
      const id = params.file.slice(0, -5)
      if (!/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) throw new ComplibError('NOT_FOUND', `no part ${params.file}`)
      const c = await services.storage.components.get(id)
      const symbol = c.symbols[0] ? await services.storage.symbols.get(c.symbols[0].id) : undefined
      const footprints = await Promise.all(c.footprints.map((f) => services.storage.footprints.get(f.id)))
      const attachments = c.attachments.length ? await services.storage.attachments.listForComponent(c.id) : []
      // The category's value parameter (decision 0440), if its templates name one.
      const valueType = (await services.storage.categories.templatesForPath(c.category)).find((t) => t.isValue)?.parameterType
      const settings = await services.storage.settings.get()
      return toKicadPart(c, { symbol: symbol && _libId(symbol), footprints: footprints.map(_libId), attachments, origin: url.origin, valueType }, settings.kicad)
    },
  }),
]

function _hideObsolete(): boolean {
  return /^(1|true|yes)$/i.test(process.env.COMPLIB_KICAD_HIDE_OBSOLETE ?? '')
}

async function _count(storage: Storage, category: string): Promise<number> {
  let n = 0
  for await (const c of _all(storage, category)) if (c.category?.toLowerCase() === category.toLowerCase() && c.status !== 'obsolete') n++
  return n
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

/** KiCad's category ids are the category records' ids: a rename keeps them. By path, compared by foldKey. */
async function _categoryIds(storage: Storage): Promise<Map<string, string>> {
  return new Map((await storage.categories.list()).map((c) => [foldKey(c.path), c.id]))
}
