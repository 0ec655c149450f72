import {
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  type SourceAnswer,
  type SourceContext,
  type SourceLifecycle,
  type SupplierOffer,
} from '@complib/core'
import * as z from 'zod'
import { candidateOf, httpUrl, positive, priceBreaksOf, rohsCompliant } from './_internal/answer-fields'
import { credential, HttpUrl } from './_internal/config-fields'
import { answeredOk, conform, readAnswer, refusal, scrub } from './_internal/errors'
import { mergeByName, parameterOf, type NamedValues } from './_internal/parameters'

/*
 * Mouser Search API, coded against Mouser's own documentation:
 * - https://api.mouser.com/api/docs/ui/index — the Swagger UI of the API
 *   (its model: SearchByKeywordRequest, SearchByPartRequest,
 *   SearchResponseRoot, SearchResponse, MouserPart, ProductAttribute,
 *   Pricebreak, ErrorEntity; POST /api/v{version}/search/keyword and
 *   /search/partnumber, the key in the `apiKey` query parameter);
 * - https://www.mouser.com/api-search/ — what the Search API offers and its
 *   limits ("up to 50 results returned per call, up to 30 calls per minute,
 *   up to 1,000 calls per day").
 * Mouser documents no error statuses and no values for `LifecycleStatus`,
 * prices or availability texts: where this file reads those, the comment
 * says what it assumes and why.
 */

const MOUSER_BASE_URL = 'https://api.mouser.com'
/** The Swagger caps both searches at 50 parts per call. */
const MAX_RECORDS = 50

const MouserConfig = z.strictObject({
  apiKey: credential('an API key', 'The Search API key (My Mouser → APIs → Search API); the Cart/Order key is a different one'),
  baseUrl: HttpUrl.default(MOUSER_BASE_URL)
    .meta({ description: "Mouser's API host; change it only to go through a proxy or a test fake" }),
})
type MouserConfig = z.infer<typeof MouserConfig>

// ---------------------------------------------------------------------------
// What Mouser answers (Swagger models SearchResponseRoot and below). Every
// field is optional there, and real answers carry nulls, so each is read as
// nullish; counts are documented as strings but read as either.

const Text = z.string().nullish()
const Count = z.union([z.string(), z.number()]).nullish()

const ErrorEntity = z.object({ Id: z.number().nullish(), Code: Text, Message: Text, ResourceKey: Text, PropertyName: Text })
type ErrorEntity = z.infer<typeof ErrorEntity>

const ProductAttribute = z.object({ AttributeName: Text, AttributeValue: Text, AttributeCost: Text })
const Pricebreak = z.object({ Quantity: Count, Price: Text, Currency: Text })

const MouserPart = z.object({
  Availability: Text,
  AvailabilityInStock: Count,
  DataSheetUrl: Text,
  Description: Text,
  ImagePath: Text,
  Category: Text,
  LifecycleStatus: Text,
  IsDiscontinued: z.union([z.string(), z.boolean()]).nullish(),
  Manufacturer: Text,
  ManufacturerPartNumber: Text,
  Min: Count,
  Mult: Count,
  MouserPartNumber: Text,
  ProductAttributes: z.array(ProductAttribute).nullish(),
  PriceBreaks: z.array(Pricebreak).nullish(),
  ProductDetailUrl: Text,
  ROHSStatus: Text,
})
type MouserPart = z.infer<typeof MouserPart>

const SearchResponseRoot = z.object({
  Errors: z.array(ErrorEntity).nullish(),
  SearchResults: z.object({ NumberOfResult: z.number().nullish(), Parts: z.array(MouserPart).nullish() }).nullish(),
  // Not in the Swagger: the framework's own error answers carry only this.
  Message: Text,
})

// ---------------------------------------------------------------------------

export const mouserSource = defineSource({
  type: 'mouser',
  title: 'Mouser',
  description: "Parts, stock and prices from Mouser Electronics' Search API (an API key from My Mouser).",
  documentation: 'https://api.mouser.com/api/docs/ui/index',
  configSchema: MouserConfig,
  secretFields: ['apiKey'],
  capabilities: { search: true, offers: true, lifecycle: true },
  // https://www.mouser.com/api-search/: "Up to 30 calls per minute", "Up to 1,000 calls per day".
  limits: { requestsPerMinute: 30, requestsPerDay: 1000 },

  async search(query, context, limit) {
    const keyword = query.trim()
    const records = Math.min(Math.floor(limit), MAX_RECORDS)
    if (!keyword || !(records >= 1)) return []
    // One keyword search per call: it matches part numbers too, and every call counts against 1,000 a day.
    const parts = await _ask(context, 'keyword', { SearchByKeywordRequest: { keyword, records, startingRecord: 0 } })
    const seen = new Set<string>()
    const out: SourceCandidate[] = []
    for (const raw of parts) {
      const part = _normalise(raw, context.now())
      if (!part || seen.has(part.ref.toUpperCase())) continue
      seen.add(part.ref.toUpperCase())
      out.push(conform('Mouser', SourceCandidate, candidateOf(part, part.offers[0]?.stock ?? null), 'a part of its search'))
      if (out.length === records) break
    }
    return out
  },

  async fetch(ref, context) {
    const wanted = ref.trim()
    if (!_isMouserPartNumber(wanted)) return null
    const parts = await _ask(context, 'partnumber', { SearchByPartRequest: { mouserPartNumber: wanted, partSearchOptions: 'Exact' } })
    // "Exact" matches manufacturer part numbers too, so the ref is checked against Mouser's own number.
    const match = parts.find((p) => _clean(p.MouserPartNumber)?.toUpperCase() === wanted.toUpperCase())
    if (!match) return null
    const part = _normalise(match, context.now())
    if (!part) throw new SourceError('bad-answer', `Mouser answered part ${wanted} without a manufacturer part number`)
    return conform('Mouser', SourcePart, part, `part ${wanted}`)
  },
})

// ---------------------------------------------------------------------------
// Asking

/** POSTs one search and answers its parts, or the SourceError Mouser's answer stands for. */
async function _ask(context: SourceContext<MouserConfig>, endpoint: 'keyword' | 'partnumber', body: Record<string, unknown>): Promise<MouserPart[]> {
  const url = new URL(`${context.config.baseUrl.replace(/\/+$/, '')}/api/v1/search/${endpoint}`)
  // Where the answer came from, for messages: host and path, never the query the key travels in.
  const where = `${url.host}${url.pathname}`
  url.searchParams.set('apiKey', context.config.apiKey)
  const answer = await context.http.request(url, { method: 'POST', body })
  return _partsOf(answer, where, context.config.apiKey)
}

/**
 * The parts of an answer. Mouser says why it refused in an `Errors` array
 * (ErrorEntity), also in a 200 answer; a refused key is read from there
 * before the status, since which status comes with it is not documented.
 */
function _partsOf(answer: SourceAnswer, where: string, apiKey: string): MouserPart[] {
  if (!answeredOk(answer)) {
    const said = _errorsOf(answer)
    const auth = said.errors.find(_isKeyError)
    if (auth) throw _keyError(auth, apiKey)
    const quote = said.errors.map((e) => _describe(e, apiKey)).join('; ') || scrub(said.message ?? '', [apiKey])
    throw refusal(answer, where, quote.slice(0, 200))
  }
  const { Errors: errors, SearchResults: results, Message: message } = readAnswer(SearchResponseRoot, answer.json(), `${where} answered a shape its documentation does not describe`)
  if (errors && errors.length > 0) throw _errorFromEntities(errors, where, apiKey)
  if (!results) throw new SourceError('bad-answer', `${where} answered neither results nor errors${message ? `: ${scrub(message, [apiKey]).slice(0, 200)}` : ''}`)
  return results.Parts ?? []
}

/** What a refusal said, if its body is JSON of either documented or framework shape. */
function _errorsOf(answer: SourceAnswer): { errors: ErrorEntity[]; message: string | null } {
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return { errors: [], message: null }
  }
  const parsed = SearchResponseRoot.safeParse(body)
  return parsed.success ? { errors: parsed.data.Errors ?? [], message: parsed.data.Message ?? null } : { errors: [], message: null }
}

/**
 * The SourceError for an `Errors` array. Mouser lists no codes; the ones
 * seen are `Invalid`/`InvalidIdentifier` and `Required` on the property
 * "API Key" (a wrong or missing key), `TooManyRequests` (over the daily
 * calls) and `InvalidCharacters` (a query it cannot take).
 */
function _errorFromEntities(errors: ErrorEntity[], where: string, apiKey: string): SourceError {
  const auth = errors.find(_isKeyError)
  if (auth) return _keyError(auth, apiKey)
  const said = errors.map((e) => _describe(e, apiKey)).join('; ').slice(0, 200)
  if (errors.some(_isQuotaError)) return new SourceError('quota', `${where}: Mouser's call limit is spent (${said})`)
  return new SourceError('refused', `${where} refused the search: ${said}`)
}

function _isKeyError(e: ErrorEntity): boolean {
  return /api\s*key/i.test(e.PropertyName ?? '') || /InvalidIdentifier/i.test(e.ResourceKey ?? '') || /unique identifier|api\s*key|unauthori[sz]ed/i.test(e.Message ?? '')
}

function _isQuotaError(e: ErrorEntity): boolean {
  return /too\s*many|rate\s*limit|quota|exceed/i.test(`${e.Code ?? ''} ${e.Message ?? ''}`)
}

function _keyError(e: ErrorEntity, apiKey: string): SourceError {
  return new SourceError('auth', `Mouser refused the API key (${_describe(e, apiKey)})`)
}

/** One ErrorEntity in words, with the key taken out should Mouser ever repeat it. */
function _describe(e: ErrorEntity, apiKey: string): string {
  // A code its message already starts with ("Invalid", "Invalid unique identifier.") is said once.
  const code = e.Code && e.Message?.toLowerCase().startsWith(e.Code.toLowerCase()) ? null : e.Code
  const words = [code, e.Message, e.PropertyName ? `on ${e.PropertyName}` : null].filter((w): w is string => typeof w === 'string' && w.trim() !== '')
  return scrub(words.join(' ').trim() || 'no reason given', [apiKey]).slice(0, 200)
}

/** The Swagger: "Each part number must be a minimum of 3 characters and a maximum of 40", several joined by `|`. */
function _isMouserPartNumber(ref: string): boolean {
  return ref.length >= 3 && ref.length <= 40 && !ref.includes('|')
}

// ---------------------------------------------------------------------------
// Normalising (MouserPart → SourcePart)

/** One MouserPart as the contract's part, or null when it has no Mouser or manufacturer part number to be had by. */
function _normalise(p: MouserPart, now: Date): SourcePart | null {
  const ref = _clean(p.MouserPartNumber)
  const mpn = _clean(p.ManufacturerPartNumber)
  if (!ref || ref.length > 300 || !mpn || mpn.length > 200) return null
  const attributes = _attributes(p)
  const category = _clip(p.Category, 200)
  const supplierStatus = _clip(p.LifecycleStatus, 200)
  const productUrl = httpUrl(p.ProductDetailUrl)
  return {
    ref,
    manufacturer: _clip(p.Manufacturer, 200),
    mpn,
    name: null,
    description: _clip(p.Description, 10_000),
    categoryHints: category ? [category] : [],
    parameters: attributes.map((a) => parameterOf(a, splitMouserUnit)).slice(0, 200),
    datasheetUrl: httpUrl(p.DataSheetUrl),
    imageUrl: httpUrl(p.ImagePath),
    productUrl,
    lifecycle: mouserLifecycle(supplierStatus, _isTrue(p.IsDiscontinued)),
    supplierStatus,
    package: _clip(attributes.find((a) => /^package\s*\/\s*case$/i.test(a.name))?.values.join(', '), 200),
    // `ROHSStatus` is a text ("RoHS Compliant", "RoHS Compliant By Exemption", "Not Compliant"); anything else is unknown.
    rohs: rohsCompliant(p.ROHSStatus),
    offers: [_offer(p, ref, productUrl, attributes, now)],
  }
}

/** Mouser's one offer for the part: its stock, order quantities and price breaks. */
function _offer(p: MouserPart, sku: string, url: string | null, attributes: NamedValues[], now: Date): SupplierOffer {
  const breaks = _priceBreaks(p.PriceBreaks ?? [])
  return {
    supplier: 'Mouser',
    sku: sku.slice(0, 200),
    url,
    stock: _stock(p),
    minimumQuantity: positive(parseMouserQuantity(p.Min)),
    multiple: positive(parseMouserQuantity(p.Mult)),
    // The packagings Mouser sells the part in, e.g. "Reel, Cut Tape, MouseReel".
    packaging: _clip(attributes.find((a) => /^packaging$/i.test(a.name))?.values.join(', '), 200),
    currency: breaks.currency,
    priceBreaks: breaks.breaks,
    fetchedAt: now.toISOString(),
  }
}

/**
 * What is on the shelf. `AvailabilityInStock` is the count alone (a string,
 * e.g. "12345"); when it is missing, `Availability` is read, a text in the
 * account's language ("12,345 In Stock", "6178 在庫") — but not one that
 * counts what is on order.
 */
function _stock(p: MouserPart): number | null {
  const counted = parseMouserQuantity(p.AvailabilityInStock)
  if (counted !== null) return counted
  const text = _clean(p.Availability)
  if (!text || /order/i.test(text)) return null
  return parseMouserQuantity(text)
}

/** Price breaks in one currency (the first one's), ascending by quantity, each quantity once. */
function _priceBreaks(raw: z.infer<typeof Pricebreak>[]): { currency: string | null; breaks: SupplierOffer['priceBreaks'] } {
  let currency: string | null = null
  const byQuantity = new Map<number, number>()
  for (const b of raw) {
    const quantity = positive(parseMouserQuantity(b.Quantity))
    const price = b.Price ? parseMouserPrice(b.Price) : null
    if (quantity === null || price === null) continue
    const code = /^[A-Za-z]{3}$/.test(b.Currency?.trim() ?? '') ? b.Currency!.trim().toUpperCase() : null
    currency ??= code
    if (code !== null && code !== currency) continue
    if (!byQuantity.has(quantity)) byQuantity.set(quantity, price)
  }
  return { currency, breaks: priceBreaksOf(byQuantity) }
}

/** ProductAttributes by name, in Mouser's order: it repeats a name once per value (Packaging: Reel, Cut Tape, MouseReel). */
function _attributes(p: MouserPart): NamedValues[] {
  return mergeByName((p.ProductAttributes ?? []).map((a) => [_clean(a.AttributeName), _clean(a.AttributeValue)] as const))
}

// ---------------------------------------------------------------------------
// Reading Mouser's texts (exported for the tests)

/**
 * A lifecycle in the contract's words from Mouser's `LifecycleStatus`, a free
 * text the Swagger does not enumerate. Seen values: empty for a part in
 * ordinary production (Mouser names only the exceptions, so empty is
 * `active`), "New Product" and "New At Mouser" (orderable: `active`), "Not
 * Recommended for New Designs" (`nrnd`), "End of Life" (still orderable
 * while the last-time buy lasts: `nrnd`), "Obsolete" (`obsolete`). A part
 * Mouser only marks `IsDiscontinued` is one Mouser stopped carrying, which
 * says nothing of the manufacturer's production: `unknown`.
 */
export function mouserLifecycle(status: string | null | undefined, discontinued = false): SourceLifecycle {
  const text = _clean(status)?.toLowerCase() ?? ''
  if (!text) return discontinued ? 'unknown' : 'active'
  // Order matters: "Not Recommended for New Designs" says "new", "Pre-Production" says "production".
  if (/obsolete|discontinued/.test(text)) return 'obsolete'
  if (/not recommended|\bnr(?:f?n|f)d\b/.test(text)) return 'nrnd'
  if (/end of life|\beol\b|last[- ]time buy|lifetime buy/.test(text)) return 'nrnd'
  if (/preview|pre-?production|coming soon|announced|sampl/.test(text)) return 'preview'
  if (/\bnew\b|active|production/.test(text)) return 'active'
  return 'unknown'
}

/**
 * A price from Mouser's `Price` text, formatted for the account's currency
 * and locale: "$0.52", "0,52 €", "1.234,56 €", "$1,234.56", "¥1,234",
 * "CHF 1'234.50". Symbols and letters are dropped; with both `.` and `,` the
 * last is the decimal mark; one mark repeated groups thousands; a single
 * mark followed by exactly three digits groups thousands unless the whole
 * part is 0 ("¥1,234" = 1234, "$0.523" = 0.523). Null when no number is there.
 */
export function parseMouserPrice(text: string): number | null {
  const compact = text.replace(/[^\d.,]/g, '')
  if (!/\d/.test(compact)) return null
  const decimal = _decimalMark(compact, COMMA_DECIMAL_CURRENCY.test(text))
  const group = decimal === '.' ? ',' : decimal === ',' ? '.' : null
  let normal = decimal === null ? compact.replace(/[.,]/g, '') : compact.split(group!).join('')
  if (decimal !== null) normal = normal.replace(decimal, '.')
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(normal)) return null
  const n = Number(normal)
  return Number.isFinite(n) && n >= 0 ? n : null
}

/**
 * Which mark is the decimal one. Both present: the last. One `.` alone is
 * always decimal ("$1.235"): prices in currencies written with `.` groups
 * carry a `,` decimal too ("1.234,56 €"). One `,` alone is decimal in the
 * currencies written that way, or before other than three digits ("0,52 €");
 * otherwise it groups thousands ("$1,234", "¥1,234"). A mark repeated groups.
 */
function _decimalMark(compact: string, commaCurrency: boolean): '.' | ',' | null {
  const dot = compact.lastIndexOf('.')
  const comma = compact.lastIndexOf(',')
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ','
  const mark = dot >= 0 ? '.' : comma >= 0 ? ',' : null
  if (mark === null) return null
  const pieces = compact.split(mark)
  if (pieces.length > 2) return null
  if (mark === '.') return '.'
  const [whole = '', fraction = ''] = pieces
  return commaCurrency || fraction.length !== 3 || whole === '' || Number(whole) === 0 ? ',' : null
}

/** Currencies whose prices Mouser writes with a decimal comma (its European sites). */
const COMMA_DECIMAL_CURRENCY = /€|EUR|zł|PLN|kr|SEK|DKK|NOK|Kč|CZK|Ft|HUF|lei|RON/i

/**
 * A count from a Mouser field documented as a string ("2500", "12,345 In
 * Stock", "12.345 Auf Lager", "12 345"): the first number, its thousands
 * grouped by `,` `.` or a space. Null when there is none ("In Stock", "None").
 */
export function parseMouserQuantity(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null
  const found = /\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})+(?!\d)|\d+/.exec(value ?? '')
  if (!found) return null
  const n = Number(found[0].replace(/\D/g, ''))
  return Number.isSafeInteger(n) ? n : null
}

/**
 * A value and its unit, when the unit is clearly one: a number, then an SI
 * unit with an optional prefix ("36 V", "1.2 MHz", "10 kOhms"), as the
 * library writes them (value "1.2M", unit "Hz"). Anything else (a count, a
 * range, "- 40 C") is left whole with no unit.
 */
export function splitMouserUnit(text: string): { value: string; unit: string } | null {
  const found = /^([+-]?\d+(?:\.\d+)?)\s*([pnuµμmkMG]?)(V|A|W|Hz|F|H|Ohms?|Ω)$/.exec(text.trim())
  if (!found) return null
  const [, number = '', prefix = '', unit = ''] = found
  return { value: `${number}${prefix}`, unit: /^ohm/i.test(unit) ? 'Ω' : unit }
}

// ---------------------------------------------------------------------------
// Small readers

/** A trimmed text, or null for nothing (Mouser writes "N/A" where it has nothing). */
function _clean(value: string | null | undefined): string | null {
  const text = value?.trim()
  return text && text.toUpperCase() !== 'N/A' ? text : null
}

function _clip(value: string | null | undefined, max: number): string | null {
  return _clean(value)?.slice(0, max) ?? null
}

function _isTrue(value: string | boolean | null | undefined): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true')
}

