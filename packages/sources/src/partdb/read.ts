import { SourceError, type SourceAnswer } from '@complib/core'
import type * as z from 'zod'
import { cleanText, currencyCode } from '../_internal/answer-fields'
import { answeredOk, joinWords, oneLine, readAnswer, refusal, scrub } from '../_internal/errors'
import { ErrorBody, FullPart, HydraCollection, Info, TreeNode } from './answers'
import type { PartdbContext } from './config'

/*
 * Asking Part-DB's REST API, coded against its documentation and the source
 * it is generated from, as of commit 1521c63c (2026-08-19):
 * - https://docs.part-db.de/api/intro.html (docs/api/intro.md) — endpoints under
 *   `/api/`; `Accept: application/ld+json` for JSON-LD (chosen here: the docs
 *   recommend it, and its collections carry their total and next-page link);
 *   pagination by `page` and `itemsPerPage`; GET /api/info;
 * - https://docs.part-db.de/api/authentication.html (docs/api/authentication.md)
 *   — `Authorization: Bearer tcp_…`, a token bound to a user and scope;
 * - src/ApiResource/PartDBInfo.php — `base_currency` of GET /api/info, the
 *   currency of a Pricedetail whose `currency_iso_code` is null ("the global
 *   base currency");
 * - src/Security/ApiTokenAuthenticator.php (a refused token: 401, no body,
 *   `WWW-Authenticate: Bearer … error_description="…"`) and
 *   AuthenticationEntryPoint.php (no token: 401 `{ title, detail }`).
 */

/** Parts per page of a listing: three requests for a library of 300. */
const PAGE_SIZE = 100
/** A bound on the pages of one listing, against a server that always says there is a next one. */
const MAX_PAGES = 10_000
const BASE_CURRENCY_MEMO = 'partdb:base-currency'

/** A GET of the API with the token, the answer's JSON, or null for a 404 when `notFound` is 'null'. */
async function _get(context: PartdbContext, path: string, query: Record<string, string>, notFound: 'null' | 'error' = 'error'): Promise<{ body: unknown; where: string } | null> {
  const url = new URL(`${context.config.baseUrl.replace(/\/+$/, '')}${path}`)
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  // Host and path for messages: the query holds what a user searched for, the token travels in a header.
  const where = `${url.host}${url.pathname}`
  const answer = await context.http.request(url, { method: 'GET', headers: { accept: 'application/ld+json', authorization: `Bearer ${context.config.token}` } })
  if (answer.status === 404 && notFound === 'null') return null
  if (!answeredOk(answer)) throw refusal(answer, where, scrub(_said(answer), [context.config.token]))
  return { body: answer.json(), where }
}

/** One part whole, or null when Part-DB has none of that id. */
export async function readPart(context: PartdbContext, id: number): Promise<FullPart | null> {
  const got = await _get(context, `/api/parts/${id}`, {}, 'null')
  return got ? _read(FullPart, got.body, got.where) : null
}

/** One page of a collection: its members as `schema` reads them, and whether Part-DB links a next page. */
export async function readPage<T>(context: PartdbContext, path: string, schema: z.ZodType<T>, query: Record<string, string>): Promise<{ items: T[]; total: number | null; next: boolean }> {
  const got = (await _get(context, path, query))!
  const page = _read(HydraCollection, got.body, got.where)
  const members = page['hydra:member'] ?? page.member
  if (!members) throw new SourceError('bad-answer', `${got.where} answered a collection without members`)
  const view = page['hydra:view'] ?? page.view
  const total = page['hydra:totalItems'] ?? page.totalItems ?? null
  return { items: members.map((m, i) => _read(schema, m, `${got.where} (member ${i})`)), total, next: !!(view?.['hydra:next'] ?? view?.next) }
}

/**
 * A collection whole, page by page. The next page is asked while Part-DB
 * links one (it may cap `itemsPerPage` lower than asked), or, without links,
 * while fewer than its total have come.
 */
export async function readAll<T>(context: PartdbContext, path: string, schema: z.ZodType<T>, query: Record<string, string> = {}): Promise<T[]> {
  const out: T[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const got = await readPage(context, path, schema, { ...query, page: String(page), itemsPerPage: String(PAGE_SIZE) })
    out.push(...got.items)
    const more = got.next || (got.total !== null && out.length < got.total)
    if (!more || got.items.length === 0) break
  }
  return out
}

/** A node of a tree collection: its name and its parent's IRI. */
export interface TreeName {
  name: string | null
  parent: string | null
}

/** A tree collection (categories, locations, attachment types) by IRI. */
export async function readTree(context: PartdbContext, path: string): Promise<Map<string, TreeName>> {
  const nodes = await readAll(context, path, TreeNode)
  return new Map(nodes.map((n) => [n['@id'], { name: cleanText(n.name), parent: cleanText(n.parent) }]))
}

/** Part-DB's base currency (GET /api/info), the currency of prices that name none; null when the server does not say. */
export async function readBaseCurrency(context: PartdbContext, fresh: boolean): Promise<string | null> {
  if (!fresh && context.memo.has(BASE_CURRENCY_MEMO)) return context.memo.get(BASE_CURRENCY_MEMO) as string | null
  const got = await _get(context, '/api/info', {}, 'null')
  const currency = got ? currencyCode(_read(Info, got.body, got.where).base_currency) : null
  context.memo.set(BASE_CURRENCY_MEMO, currency)
  return currency
}

/** Whether a price of the part names no currency of its own, so the base currency is needed. */
export function needsBaseCurrency(part: FullPart): boolean {
  return (part.orderdetails ?? []).some((o) => (o.pricedetails ?? []).some((p) => !currencyCode(p.currency_iso_code)))
}

/** What a refusal says: the WWW-Authenticate error description of a refused token, else the error body's words. */
function _said(answer: SourceAnswer): string {
  const challenge = /error_description="([^"]*)"/.exec(answer.headers.get('www-authenticate') ?? '')
  if (challenge?.[1]) return challenge[1].slice(0, 200)
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    // An HTML error page says nothing worth quoting.
    return answer.text.trimStart().startsWith('<') ? '' : oneLine(answer.text)
  }
  const parsed = ErrorBody.safeParse(body)
  if (!parsed.success) return ''
  const e = parsed.data
  return joinWords([e.title ?? e['hydra:title'], e.detail ?? e['hydra:description'] ?? e.message])
}

function _read<T>(schema: z.ZodType<T>, body: unknown, where: string): T {
  return readAnswer(schema, body, `${where} answered a shape Part-DB's API does not have`)
}
