import { ComplibError, isId } from '@complib/core'
import * as z from 'zod'
import { kicadAnswer } from '../kicad/cache'
import { kicadCategories, kicadPages, kicadView, listedPath, listedUnder } from '../kicad/categories'
import { KicadPart as Part, toKicadPart } from '../kicad/fields'
import { kicadRefLoader } from '../kicad/part-refs'
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
 * A category's listing carries each part's fields as the part route gives
 * them, so KiCad 10 has a part without asking for it (decision 0635). Every
 * answer has an ETag and `Cache-Control: private, max-age` from the KiCad
 * settings, and `If-None-Match` is answered with 304 (decision 0636). The
 * settings' hideObsolete and categoryDepth decide which categories and parts
 * KiCad sees (decision 0637, kicad/categories.ts).
 */

const Category = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'KicadCategory' })
const PartSummary = Part.extend({ description: z.string() }).meta({ id: 'KicadPartSummary' })
const JsonFile = z.object({ file: z.string().regex(/^[A-Za-z0-9_-]{1,200}\.json$/, { error: 'expected <id>.json' }) })

const CACHED = {
  etag: { description: 'A digest of the answer and the KiCad settings; send it back as If-None-Match' },
  'cache-control': { description: '`private, max-age=<KiCad settings cacheMaxAge>`' },
}
const NOT_MODIFIED = { 304: { description: 'Unchanged since the If-None-Match ETag', headers: CACHED } }

export const kicadRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/',
    group: 'kicad',
    operationId: 'kicadRoot',
    permission: 'library:read',
    summary: 'KiCad HTTP library: the endpoints it may use',
    responses: { 200: { description: 'Endpoint map', schema: z.object({ categories: z.string(), parts: z.string() }).meta({ id: 'KicadRoot' }), headers: CACHED }, ...NOT_MODIFIED },
    handler: async ({ services, event }) => kicadAnswer(event.req, JSON.stringify({ categories: '', parts: '' }), (await services.storage.settings.get()).kicad),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/categories.json',
    group: 'kicad',
    operationId: 'kicadCategories',
    permission: 'library:read',
    summary: 'KiCad HTTP library: categories of live components',
    responses: { 200: { description: 'Categories', schema: z.array(Category), headers: CACHED }, ...NOT_MODIFIED },
    handler: async ({ services, event }) => {
      const settings = (await services.storage.settings.get()).kicad
      const out: z.infer<typeof Category>[] = (await kicadCategories(services.storage, kicadView(settings))).map((c) => ({
        id: c.id,
        name: c.name,
        description: `${c.count} ${c.count === 1 ? 'part' : 'parts'}`,
      }))
      return kicadAnswer(event.req, JSON.stringify(out), settings)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/kicad/v1/parts/category/{file}',
    group: 'kicad',
    operationId: 'kicadCategoryParts',
    permission: 'library:read',
    summary: 'KiCad HTTP library: the parts of a category (`{id}.json`), each with its fields',
    params: JsonFile,
    responses: { 200: { description: 'Parts, each as the part route gives it, with its description', schema: z.array(PartSummary), headers: CACHED }, ...NOT_MODIFIED },
    handler: async ({ params, services, event, url }) => {
      const id = params.file.slice(0, -5)
      if (!isId('category', id)) throw new ComplibError('NOT_FOUND', `no category ${params.file}`)
      const record = await services.storage.categories.get(id)
      const settings = (await services.storage.settings.get()).kicad
      const view = kicadView(settings)
      // A category deeper than categoryDepth is listed under its ancestor, not by itself.
      if (listedPath(record.path, view) !== record.path) throw new ComplibError('NOT_FOUND', `category ${params.file} is listed under its ancestor`)
      const refs = kicadRefLoader(services.storage, url.origin)
      // Built a page of parts at a time, as UTF-8 chunks: one array's text, never one object of 100,000 parts.
      const chunks: Uint8Array[] = []
      let first = true
      for await (const page of kicadPages(services.storage, record.path)) {
        // Without categoryDepth a sub-category (Passives/Resistors) is a category of its own in KiCad.
        const listed = page.filter((c) => listedUnder(c, record.path, view))
        const resolved = await refs.page(listed)
        const texts = listed.map((c, i) => JSON.stringify({ ...toKicadPart(c, resolved[i]!, settings), description: c.description ?? c.name }))
        if (!texts.length) continue
        chunks.push(Buffer.from(`${first ? '[' : ','}${texts.join(',')}`))
        first = false
      }
      chunks.push(Buffer.from(first ? '[]' : ']'))
      return kicadAnswer(event.req, chunks, settings)
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
    responses: { 200: { description: 'The part', schema: Part, headers: CACHED }, ...NOT_MODIFIED },
    handler: async ({ params, services, event, url }) => {
      const id = params.file.slice(0, -5)
      if (!/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) throw new ComplibError('NOT_FOUND', `no part ${params.file}`)
      const c = await services.storage.components.get(id)
      const settings = (await services.storage.settings.get()).kicad
      const refs = await kicadRefLoader(services.storage, url.origin).one(c)
      return kicadAnswer(event.req, JSON.stringify(toKicadPart(c, refs, settings)), settings)
    },
  }),
]
