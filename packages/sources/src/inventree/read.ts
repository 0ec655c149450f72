import { SourceError, type SourceAnswer } from '@complib/core'
import * as z from 'zod'
import { answeredOk, oneLine, readAnswer, refusal, scrub } from '../_internal/errors'
import { Attachment, ErrorBody, Info, LegacyParameter, ManufacturerPart, Parameter, Part, PriceBreak, StockItem, SupplierPart, TreeNode } from './answers'
import { serverBase, type InventreeContext } from './config'

/*
 * Asking InvenTree's REST API, coded against InvenTree's own documentation
 * and source:
 * - https://docs.inventree.org/en/stable/api/ and the schema pages under
 *   https://docs.inventree.org/en/stable/api/schema/: token auth is the
 *   `Authorization` header "Token <token>"; a list answers `{ count, next,
 *   previous, results }` when `limit`/`offset` are given (API v341,
 *   inventree/InvenTree#9547: "Require pagination limit on list queries");
 *   `GET /api/` (InvenTree/api.py, InfoView) answers `{ server: "InvenTree",
 *   version, apiVersion, … }` without a login;
 * - github.com/inventree/InvenTree, src/backend/InvenTree/: parts at
 *   `/api/part/` (`tags` only with `?tags=true`), categories at
 *   `/api/part/category/`; part parameters at `/api/parameter/`, which
 *   replaced `/api/part/parameter/` in API v429 (inventree/InvenTree#10699;
 *   the official client inventree-python, inventree/part.py and base.py, uses
 *   the old one up to v428 and the new one from v429); attachments at
 *   `/api/attachment/` (API v207, inventree/InvenTree#7420, the oldest this
 *   source reads); company/api.py — manufacturer parts at
 *   `/api/company/part/manufacturer/` (`?manufacturer_detail=true`), supplier
 *   parts at `/api/company/part/` (`?supplier_detail=true`), price breaks at
 *   `/api/company/price-break/` (filter `base_part`); stock items at
 *   `/api/stock/` (filter `in_stock`) and locations at `/api/stock/location/`.
 * An error answers `{ detail }`.
 */

/** Items a page asks for: small answers (well under the HTTP client's 8 MiB), few requests. */
const PAGE = 100
/** A bound on the pages of one list (a million items), should a server keep answering `count` without ending. */
const MAX_PAGES = 10_000
/** The API version that moved part parameters to `/api/parameter/` (inventree/InvenTree#10699). */
const GENERIC_PARAMETERS = 429
/** The API version of the generic `/api/attachment/` (inventree/InvenTree#7420), InvenTree 0.16. */
const OLDEST_API = 207
/** How long a server's API version is remembered before it is asked again (it changes only on an upgrade). */
const VERSION_TTL_MS = 60 * 60 * 1000

type Query = Record<string, string | number | boolean>

/** Everything a part is joined from, each list keyed by the part's pk. */
export interface Library {
  parts: Part[]
  categories: Map<number, TreeNode>
  locations: Map<number, TreeNode>
  parameters: Map<number, Parameter[]>
  manufacturerParts: Map<number, ManufacturerPart[]>
  supplierParts: Map<number, SupplierPart[]>
  /** By supplier part pk. */
  priceBreaks: Map<number, PriceBreak[]>
  stock: Map<number, StockItem[]>
  attachments: Map<number, Attachment[]>
}

/** One part and what a fetch joins to it, as the server's filters answered them. */
export interface PartRecords {
  part: Part
  mpns: ManufacturerPart[]
  supplierParts: SupplierPart[]
  priceBreaks: PriceBreak[]
  parameters: Parameter[]
  attachments: Attachment[]
  category: TreeNode | null
}

/** One GET with the token; the body as JSON, or null for a 404 when asked. */
async function _get(context: InventreeContext, path: string, query: Query, options: { notFoundAsNull?: boolean } = {}): Promise<unknown> {
  const url = new URL(`${serverBase(context.config)}${path}`)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value))
  const where = `${url.host}${url.pathname}`
  const answer = await context.http.request(url, { method: 'GET', headers: { authorization: `Token ${context.config.token}`, accept: 'application/json' } })
  if (answer.status === 404 && options.notFoundAsNull) return null
  if (!answeredOk(answer)) throw refusal(answer, where, scrub(_said(answer), [context.config.token]))
  return answer.json()
}

/** What an error answer says: DRF's `detail`, else its first line. */
function _said(answer: SourceAnswer): string {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(answer.text))
    return parsed.success ? (parsed.data.detail ?? '').slice(0, 200) : ''
  } catch {
    return oneLine(answer.text)
  }
}

function _read<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  return readAnswer(schema, body, `InvenTree answered ${what} in a shape its API schema does not describe`)
}

async function _page<T>(context: InventreeContext, path: string, query: Query, item: z.ZodType<T>, offset: number, limit: number): Promise<{ count: number; results: T[] }> {
  const body = await _get(context, path, { ...query, limit, offset })
  return _read(z.object({ count: z.number().int().min(0), results: z.array(item) }), body, `a page of ${path}`)
}

/** A whole list, page after page by `offset` (not by `next`: behind a proxy its host may not be the one asked). */
async function _readAll<T>(context: InventreeContext, path: string, query: Query, item: z.ZodType<T>): Promise<T[]> {
  const out: T[] = []
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await _page(context, path, query, item, out.length, PAGE)
    out.push(...page.results)
    if (page.results.length === 0 || out.length >= page.count) return out
  }
  throw new SourceError('bad-answer', `InvenTree kept answering pages of ${path} past ${MAX_PAGES * PAGE} items`)
}

/** The first page of parts InvenTree's search finds for `text`, at most `limit`. */
export async function searchParts(context: InventreeContext, text: string, limit: number): Promise<Part[]> {
  const page = await _page(context, '/api/part/', { search: text }, Part, 0, limit)
  return page.results
}

/** A part's manufacturer parts (its MPNs), with the manufacturers' names. */
export function readManufacturerParts(context: InventreeContext, pk: number): Promise<ManufacturerPart[]> {
  return _readAll(context, '/api/company/part/manufacturer/', { part: pk, manufacturer_detail: true }, ManufacturerPart)
}

/** One part and the lists a fetch joins to it, or null when InvenTree has no part `pk`. */
export async function readPartRecords(context: InventreeContext, pk: number): Promise<PartRecords | null> {
  const body = await _get(context, `/api/part/${pk}/`, { tags: true }, { notFoundAsNull: true })
  if (body === null) return null
  const part = _read(Part, body, `part ${pk}`)
  const version = await _apiVersion(context)
  const mpns = await readManufacturerParts(context, pk)
  const supplierParts = await _readAll(context, '/api/company/part/', { part: pk, supplier_detail: true }, SupplierPart)
  const priceBreaks = await _readAll(context, '/api/company/price-break/', { base_part: pk }, PriceBreak)
  const parameters = await _readParameters(context, version, pk)
  const attachments = await _readAll(context, '/api/attachment/', { model_type: 'part', model_id: pk }, Attachment)
  const category = part.category == null ? null : _read(TreeNode, await _get(context, `/api/part/category/${part.category}/`, {}), `category ${part.category}`)
  return { part, mpns, supplierParts, priceBreaks, parameters, attachments, category }
}

/** The server's API version, remembered for an hour: it decides where parameters are read. */
async function _apiVersion(context: InventreeContext): Promise<number> {
  const key = `inventree:apiVersion:${serverBase(context.config)}`
  const held = context.memo.get(key) as { version: number; at: number } | undefined
  if (held && Date.now() - held.at < VERSION_TTL_MS) return held.version
  const info = _read(Info, await _get(context, '/api/', {}), 'its server information')
  const version = Number(info.apiVersion)
  if (!Number.isInteger(version) || version < 1) throw new SourceError('bad-answer', `${serverBase(context.config)}/api/ gave no API version: is it an InvenTree server?`)
  if (version < OLDEST_API) throw new SourceError('refused', `InvenTree API version ${version} is older than ${OLDEST_API} (InvenTree 0.16), the oldest with the attachment API this source reads`)
  context.memo.set(key, { version, at: Date.now() })
  return version
}

/** Part parameters from where the server keeps them, in the generic shape (`model_id` = the part). */
async function _readParameters(context: InventreeContext, version: number, part?: number): Promise<Parameter[]> {
  if (version >= GENERIC_PARAMETERS) {
    return _readAll(context, '/api/parameter/', { model_type: 'part', template_detail: true, ...(part === undefined ? {} : { model_id: part }) }, Parameter)
  }
  const legacy = await _readAll(context, '/api/part/parameter/', { template_detail: true, ...(part === undefined ? {} : { part }) }, LegacyParameter)
  return legacy.map((p) => ({ pk: p.pk, model_id: p.part, template_detail: p.template_detail, data: p.data }))
}

/** Every list a pull joins, each read whole. Parts first: a refused token fails there. */
export async function readLibrary(context: InventreeContext): Promise<Library> {
  const parts = await _readAll(context, '/api/part/', { tags: true }, Part)
  const version = await _apiVersion(context)
  const categories = await _readAll(context, '/api/part/category/', {}, TreeNode)
  const locations = await _readAll(context, '/api/stock/location/', {}, TreeNode)
  const parameters = await _readParameters(context, version)
  const manufacturerParts = await _readAll(context, '/api/company/part/manufacturer/', { manufacturer_detail: true }, ManufacturerPart)
  const supplierParts = await _readAll(context, '/api/company/part/', { supplier_detail: true }, SupplierPart)
  const priceBreaks = await _readAll(context, '/api/company/price-break/', {}, PriceBreak)
  // Only what is on the shelf: not what was sold, consumed by a build or is being built.
  const stock = await _readAll(context, '/api/stock/', { in_stock: true }, StockItem)
  const attachments = await _readAll(context, '/api/attachment/', { model_type: 'part' }, Attachment)
  return {
    parts,
    categories: new Map(categories.map((c) => [c.pk, c])),
    locations: new Map(locations.map((l) => [l.pk, l])),
    parameters: byKey(parameters, (p) => p.model_id),
    manufacturerParts: byKey(manufacturerParts, (m) => m.part),
    supplierParts: byKey(supplierParts, (s) => s.part),
    priceBreaks: byKey(priceBreaks, (b) => b.part),
    stock: byKey(stock, (s) => s.part),
    attachments: byKey(attachments, (a) => a.model_id),
  }
}

/** A list grouped by a key of each item (a part's or supplier part's pk), in the list's order. */
export function byKey<T>(list: T[], key: (item: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const item of list) {
    const held = out.get(key(item))
    if (held) held.push(item)
    else out.set(key(item), [item])
  }
  return out
}
