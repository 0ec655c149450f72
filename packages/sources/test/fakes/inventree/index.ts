import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from '../serve'
import { inventreeFakeLibrary } from './library'
import type { FakePart, FakePriceBreak, InventreeFakeDb } from './records'
import * as render from './render'

export { inventreeFakeLibrary } from './library'
export type * from './records'

/*
 * A fake of an InvenTree server's REST API, answering in the shapes of
 * InvenTree's API schema (https://docs.inventree.org/en/stable/api/schema/)
 * and of its serializers in github.com/inventree/InvenTree,
 * src/backend/InvenTree/:
 * - InvenTree/api.py InfoView: `GET /api/` → `{ server: "InvenTree",
 *   version, instance, apiVersion, … }`, without a login;
 * - auth: DRF's TokenAuthentication, `Authorization: Token <key>`; a wrong
 *   key is 401 `{ "detail": "Invalid token." }` (on every endpoint, /api/
 *   too), none is 401 `{ "detail": "Authentication credentials were not
 *   provided." }`, both with `WWW-Authenticate: Token`; an unknown object is
 *   404 `{ "detail": "No … matches the given query." }`;
 * - lists: with `limit` (and `offset`), DRF's LimitOffsetPagination `{ count,
 *   next, previous, results }`; without, the bare array;
 * - part/serializers.py: PartSerializer at /api/part/ and /api/part/<pk>/
 *   (`tags` only with `?tags=true`, an output option of recent versions;
 *   `search` matched term by term on name, IPN, description, keywords,
 *   category name, MPN and SKU, like its search_fields), CategorySerializer
 *   at /api/part/category/ (`pathstring`, `level` derived from `parent`);
 * - common/serializers.py: ParameterSerializer at /api/parameter/ (filters
 *   `model_type`, `model_id`) from API v429, PartParameterSerializer at
 *   /api/part/parameter/ (filter `part`) up to v428
 *   (inventree/InvenTree#10699), both with `template_detail`;
 *   AttachmentSerializer at /api/attachment/ (filters `model_type`,
 *   `model_id`; `attachment` a media path, `filename` its base name);
 * - company/serializers.py and company/api.py: ManufacturerPartSerializer
 *   (`manufacturer_detail` with `?manufacturer_detail=true`, filter `part`),
 *   SupplierPartSerializer (`supplier_detail` with `?supplier_detail=true`,
 *   `MPN`, `pack_quantity_native`; filters `part`, `supplier`),
 *   SupplierPriceBreakSerializer (filters `part`, `base_part`; `price` as
 *   DRF renders a Decimal, text with six places; `quantity` a number);
 * - stock/serializers.py: StockItemSerializer at /api/stock/ (filters
 *   `part`, `location`, `in_stock`), LocationSerializer at
 *   /api/stock/location/.
 * The library is generated from a seed, so every run holds the same one, in
 * plain records of InvenTree's model fields on `fake.db`: tests change them
 * before a pull; answers derive the rest (paths, details) from them.
 */

/** The one API token this fake accepts (InvenTree's own tokens look like this: `inv-` and a date). */
export const INVENTREE_FAKE_TOKEN = 'inv-7c3e9a1f5b2d4e6f8a0c1e3b5d7f9a2c-20261126'
/** The API version of InvenTree 1.3 (docs.inventree.org/en/stable/api/schema). */
export const INVENTREE_FAKE_API_VERSION = 477

export interface InventreeFake extends Fake {
  db: InventreeFakeDb
  /** What `GET /api/` says; `apiVersion` chooses which parameter endpoint exists. */
  info: { apiVersion: number }
}

export async function startInventreeFake(options: { parts?: number; apiVersion?: number } = {}): Promise<InventreeFake> {
  const db = inventreeFakeLibrary(options.parts ?? 300)
  const info = { apiVersion: options.apiVersion ?? INVENTREE_FAKE_API_VERSION }
  let base = ''
  const fake = await startFake((request, res) => _answer(db, info, base, request, res))
  base = fake.url
  return Object.assign(fake, { db, info })
}

// ---------------------------------------------------------------------------
// Answering

function _answer(db: InventreeFakeDb, info: { apiVersion: number }, base: string, request: SeenRequest, res: ServerResponse): void {
  const auth = request.headers.authorization
  const token = typeof auth === 'string' && /^Token\s+/i.test(auth) ? auth.replace(/^Token\s+/i, '').trim() : null
  const unauthorized = (detail: string) => sendJson(res, 401, { detail }, { 'www-authenticate': 'Token' })
  if (token !== null && token !== INVENTREE_FAKE_TOKEN) return unauthorized('Invalid token.')
  if (request.method !== 'GET') return sendJson(res, 405, { detail: `Method "${request.method}" not allowed.` })
  if (request.path === '/api/') {
    return sendJson(res, 200, { server: 'InvenTree', version: '1.3.0', instance: 'complib fake', apiVersion: info.apiVersion, worker_running: true, plugins_enabled: false, debug_mode: false, docker_mode: false })
  }
  if (token === null) return unauthorized('Authentication credentials were not provided.')
  const q = request.query
  const flag = (name: string, fallback = false) => (q.has(name) ? /^(true|1|yes)$/i.test(q.get(name) ?? '') : fallback)
  const is = (name: string, value: number | string | null) => !q.has(name) || String(value) === q.get(name)
  const list = (items: unknown[]) => _list(res, base, request, items)
  const detail = (what: string, item: unknown) => (item === undefined ? sendJson(res, 404, { detail: `No ${what} matches the given query.` }) : sendJson(res, 200, item))
  const pkOf = (pattern: RegExp) => Number(pattern.exec(request.path)?.[1])
  const generic = info.apiVersion >= 429

  const parts = () => db.parts.map((p) => render.part(db, p, flag('tags')))
  if (request.path === '/api/part/') return list(parts().filter((p) => is('category', p.category) && _matches(db, p, q.get('search'))))
  if (/^\/api\/part\/\d+\/$/.test(request.path)) return detail('Part', parts().find((p) => p.pk === pkOf(/(\d+)/)))
  if (request.path === '/api/part/category/') return list(db.categories.map((c) => render.node(db.categories, c)))
  if (/^\/api\/part\/category\/\d+\/$/.test(request.path)) return detail('PartCategory', db.categories.map((c) => render.node(db.categories, c)).find((c) => c.pk === pkOf(/(\d+)/)))
  if (request.path === '/api/stock/location/') return list(db.locations.map((l) => render.node(db.locations, l)))
  if (request.path === '/api/parameter/' && generic) {
    return list(db.parameters.filter((p) => is('model_type', p.model_type) && is('model_id', p.model_id) && is('template', p.template)).map((p) => render.parameter(db, p, flag('template_detail', true))))
  }
  if (request.path === '/api/part/parameter/' && !generic) {
    const legacy = db.parameters.filter((p) => p.model_type === 'part' && is('part', p.model_id) && is('template', p.template))
    return list(legacy.map((p) => render.legacyParameter(db, p, flag('template_detail', true))))
  }
  if (request.path === '/api/company/part/manufacturer/') {
    return list(db.manufacturerParts.filter((m) => is('part', m.part) && is('manufacturer', m.manufacturer)).map((m) => render.manufacturerPart(db, m, flag('manufacturer_detail'))))
  }
  if (request.path === '/api/company/part/') {
    return list(db.supplierParts.filter((s) => is('part', s.part) && is('supplier', s.supplier)).map((s) => render.supplierPart(db, s, flag('supplier_detail'))))
  }
  if (request.path === '/api/company/price-break/') {
    const basePart = (b: FakePriceBreak) => db.supplierParts.find((s) => s.pk === b.part)?.part ?? null
    return list(db.priceBreaks.filter((b) => is('part', b.part) && is('base_part', basePart(b))).map((b) => render.priceBreak(db, b)))
  }
  if (request.path === '/api/stock/') {
    const kept = db.stockItems.filter((s) => is('part', s.part) && is('location', s.location) && (!q.has('in_stock') || s.in_stock === flag('in_stock')))
    return list(kept.map((s) => render.stockItem(db, s)))
  }
  if (request.path === '/api/attachment/') return list(db.attachments.filter((a) => is('model_type', a.model_type) && is('model_id', a.model_id)).map(render.attachment))
  sendJson(res, 404, { detail: 'Not found.' })
}

/** DRF's LimitOffsetPagination, or the bare list without `limit`. */
function _list(res: ServerResponse, base: string, request: SeenRequest, items: unknown[]): void {
  if (!request.query.has('limit')) return sendJson(res, 200, items)
  const limit = Math.max(0, Number(request.query.get('limit')) || 0)
  const offset = Math.max(0, Number(request.query.get('offset')) || 0)
  const at = (o: number) => {
    const url = new URL(`${base}${request.path}`)
    for (const [k, v] of request.query) url.searchParams.set(k, v)
    url.searchParams.set('offset', String(o))
    return url.toString()
  }
  sendJson(res, 200, {
    count: items.length,
    next: offset + limit < items.length ? at(offset + limit) : null,
    previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    results: items.slice(offset, offset + limit),
  })
}

/** DRF's SearchFilter: every term must match one of the search fields. */
function _matches(db: InventreeFakeDb, p: Pick<FakePart, 'pk' | 'name' | 'IPN' | 'description' | 'keywords' | 'category'>, search: string | null): boolean {
  const terms = (search ?? '').toLowerCase().split(/[\s,]+/).filter(Boolean)
  if (terms.length === 0) return true
  const fields = [
    p.name,
    p.IPN ?? '',
    p.description,
    p.keywords ?? '',
    db.categories.find((c) => c.pk === p.category)?.name ?? '',
    ...db.manufacturerParts.filter((m) => m.part === p.pk).map((m) => m.MPN),
    ...db.supplierParts.filter((s) => s.part === p.pk).map((s) => s.SKU),
  ].map((f) => f.toLowerCase())
  return terms.every((t) => fields.some((f) => f.includes(t)))
}
