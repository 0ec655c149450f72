import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from '../serve'
import { partdbLibrary } from './library'
import type { PartdbDb, PartdbPart } from './records'
import { render } from './render'

export { PARTDB_FAKE_REF, partdbLibrary } from './library'
export type * from './records'

/*
 * A fake of a Part-DB server's REST API (API Platform, JSON-LD), answering in
 * the shapes of Part-DB-server (commit 1521c63c) and its documentation:
 * - https://docs.part-db.de/api/intro.html — `/api/...` endpoints, JSON-LD for
 *   `Accept: application/ld+json`, `page` and `itemsPerPage` (API Platform's
 *   default 30 per page), LIKE filters with `%` and `_` wildcards;
 * - https://docs.part-db.de/api/authentication.html — `Authorization: Bearer tcp_…`;
 * - config/packages/api_platform.yaml — `hydra_prefix: true`: collections as
 *   `{ @context, @id, @type: hydra:Collection, hydra:totalItems, hydra:member,
 *   hydra:view: { hydra:first, hydra:last, hydra:previous, hydra:next } }`;
 *   errors as RFC 7807 / Hydra (`title`, `detail`, `status`, `hydra:title`, `hydra:description`);
 * - src/Entity/Parts/Part.php — GET /api/parts, GET /api/parts/{id} (rendered
 *   as render.ts says); filters `name`, `ipn`, `description`,
 *   `manufacturer_product_number`, `order[id]`;
 * - GET /api/categories, /api/storage_locations, /api/attachment_types
 *   (`parent` an IRI), GET /api/info (src/ApiResource/PartDBInfo.php);
 * - src/Security/ApiTokenAuthenticator.php: a `tcp_` token it does not know is
 *   a 401 with no body and `WWW-Authenticate: Bearer realm="api",
 *   error="invalid_token",error_description="Invalid credentials."`;
 *   AuthenticationEntryPoint.php: no token is a 401 `{ title, detail }`.
 * The library lives in `db`, plain records in Part-DB's entity fields
 * (relations by id, as the database holds them), rendered on every request,
 * so a test can change it before pulling again (records.ts, library.ts).
 */

/** The one API token this fake accepts (Part-DB's: `tcp_` and 64 hex digits). */
export const PARTDB_FAKE_TOKEN = 'tcp_5e1f0c9a7b3d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f2a4c6e8b0d1f'

export interface PartdbFake extends Fake {
  db: PartdbDb
}

export async function startPartdbFake(options: { parts?: number } = {}): Promise<PartdbFake> {
  const db = partdbLibrary(options.parts ?? 300)
  const fake = await startFake((req, res) => answer(db, req, res))
  return Object.assign(fake, { db })
}

// ---------------------------------------------------------------------------
// Routing

function answer(db: PartdbDb, req: SeenRequest, res: ServerResponse): void {
  const refused = authenticate(req)
  if (refused) return refused(res)
  // Other formats exist (plain JSON, JSON:API, HTML docs); this fake speaks only the JSON-LD a source asks for.
  if (!String(req.headers.accept ?? '').includes('application/ld+json')) return error(res, 406, 'Not Acceptable', 'This fake answers application/ld+json only')
  if (req.method !== 'GET') return error(res, 405, 'Method Not Allowed', `No route for "${req.method} ${req.path}"`)
  const r = render(db)
  const part = /^\/api\/parts\/(\d+)$/.exec(req.path)
  if (part) {
    const found = db.parts.find((p) => p.id === Number(part[1]))
    return found ? jsonld(res, 200, { '@context': '/api/contexts/Part', ...r.part(found, true) }) : error(res, 404, 'An error occurred', 'Not Found')
  }
  switch (req.path) {
    case '/api/info':
      return jsonld(res, 200, { '@context': '/api/contexts/PartDBInfo', '@id': '/api/info', '@type': 'PartDBInfo', version: '2.0.0', git_branch: null, git_commit: null, title: 'Part-DB', banner: '', default_uri: 'http://localhost/', global_timezone: 'Europe/Berlin', base_currency: db.baseCurrency, global_locale: 'en' })
    case '/api/parts':
      return collection(req, res, 'Part', filterParts(db.parts, req.query).map((p) => r.part(p, false)))
    case '/api/categories':
      return collection(req, res, 'Category', db.categories.map((c) => r.tree('categories', 'Category', db.categories, c)))
    case '/api/storage_locations':
      return collection(req, res, 'StorageLocation', db.storageLocations.map((c) => r.tree('storage_locations', 'StorageLocation', db.storageLocations, c)))
    case '/api/attachment_types':
      return collection(req, res, 'AttachmentType', db.attachmentTypes.map((c) => r.tree('attachment_types', 'AttachmentType', db.attachmentTypes, c)))
    default:
      return error(res, 404, 'An error occurred', `No route found for "GET ${req.path}"`)
  }
}

/** What Part-DB's firewall does with the Authorization header: null when it lets the request through. */
function authenticate(req: SeenRequest): ((res: ServerResponse) => void) | null {
  const bearer = /^(?:Bearer|Token) (\S+)$/.exec(String(req.headers.authorization ?? ''))
  if (!bearer || !/^tcp_[^_]+$/.test(bearer[1]!)) {
    return (res) => sendJson(res, 401, { title: 'Unauthorized', detail: 'Authentication is required. Please pass a valid API token in the Authorization header.' })
  }
  if (bearer[1] === PARTDB_FAKE_TOKEN) return null
  return (res) => res.writeHead(401, { 'www-authenticate': 'Bearer realm="api",error="invalid_token",error_description="Invalid credentials."' }).end()
}

function filterParts(parts: PartdbPart[], query: URLSearchParams): PartdbPart[] {
  let out = [...parts]
  for (const field of ['name', 'ipn', 'description', 'manufacturer_product_number'] as const) {
    const pattern = query.get(field)
    if (pattern === null) continue
    const like = likePattern(pattern)
    out = out.filter((p) => like.test(p[field] ?? ''))
  }
  const direction = query.get('order[id]') === 'desc' ? -1 : 1
  return out.sort((a, b) => (a.id - b.id) * direction)
}

/** SQL (I)LIKE as a regular expression: `%` any run, `_` any one character, case-insensitive (Part-DB's LikeFilter uses ILIKE). */
function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')
  return new RegExp(`^${body}$`, 'isu')
}

/** A paginated Hydra collection, as API Platform answers one. */
function collection(req: SeenRequest, res: ServerResponse, type: string, members: unknown[]): void {
  const page = Number(req.query.get('page') ?? '1')
  const perPage = Number(req.query.get('itemsPerPage') ?? '30')
  if (!Number.isInteger(page) || page < 1) return error(res, 400, 'An error occurred', 'Page should not be less than 1')
  if (!Number.isInteger(perPage) || perPage < 0) return error(res, 400, 'An error occurred', 'Item per page parameter should not be less than 0')
  const last = Math.max(1, Math.ceil(members.length / Math.max(perPage, 1)))
  const at = (n: number) => {
    const q = new URLSearchParams(req.query)
    q.set('page', String(n))
    return `${req.path}?${q.toString()}`
  }
  const view: Record<string, unknown> = { '@id': at(page), '@type': 'hydra:PartialCollectionView' }
  if (members.length > perPage) {
    Object.assign(view, { 'hydra:first': at(1), 'hydra:last': at(last) })
    if (page > 1) view['hydra:previous'] = at(page - 1)
    if (page < last) view['hydra:next'] = at(page + 1)
  }
  jsonld(res, 200, {
    '@context': `/api/contexts/${type}`,
    '@id': req.path,
    '@type': 'hydra:Collection',
    'hydra:totalItems': members.length,
    'hydra:member': members.slice((page - 1) * perPage, page * perPage),
    'hydra:view': view,
  })
}

function jsonld(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/ld+json; charset=utf-8' }).end(JSON.stringify(body))
}

/** An API Platform error with `rfc_7807_compliant_errors`, in JSON-LD. */
function error(res: ServerResponse, status: number, title: string, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/problem+json; charset=utf-8' }).end(
    JSON.stringify({ '@context': '/api/contexts/Error', '@id': `/api/errors/${status}`, '@type': 'hydra:Error', title, detail, status, type: `/errors/${status}`, 'hydra:title': title, 'hydra:description': detail }),
  )
}
