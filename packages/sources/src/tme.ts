import { createHmac } from 'node:crypto'
import {
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  statusError,
  type SourceAnswer,
  type SourceContext,
  type SourceLifecycle,
  type SupplierOffer,
} from '@complib/core'
import * as z from 'zod'
import { cleanText, clip, count, positive, priceBreaksOf } from './_internal/answer-fields'
import { credential, HttpUrl } from './_internal/config-fields'
import { answeredOk, conform, hostAndPath, issuePath, readAnswer, refusal, scrub } from './_internal/errors'
import { mergeByName, parameterOf, type NamedValues } from './_internal/parameters'

/*
 * TME API (the signed "v1" API: POST https://api.tme.eu/<Group>/<Action>.json),
 * coded against what TME publishes about it:
 * - https://developers.tme.eu/en/ — the developer centre, where a token and
 *   its application secret are had; its manual, "TME API User Manual"
 *   (https://developers.tme.eu/documentation/download; a transcript of one
 *   edition at https://manualzilla.com/doc/5656662/signature-in-tme-api):
 *   chapters "API communication", "Signature in TME API", "Products statuses
 *   returned by API", Products/Search, GetProducts, GetPricesAndStocks,
 *   GetParameters, GetProductsFiles;
 * - https://github.com/tme-dev/TME-API — TME's own snippets (PHP/api_call.php,
 *   PHP/guzzle/src/Hmac/RequestSigner.php, PYTHON/api_call.py), the reference
 *   for the signature: Token added, parameters sorted by name (ksort) and
 *   encoded per RFC 3986, base string "POST&" + rawurlencode(url) + "&" +
 *   rawurlencode(query), ApiSignature = base64(HMAC-SHA1(app secret, base)).
 * Field names of the answers are the manual's (Status, Data, ProductList,
 * Symbol, OriginalSymbol, Producer, …), as TME's snippets and long-running
 * clients read them. Where this file reads something the manual does not
 * settle (which HTTP status comes with an error Status, what a price base is),
 * the comment says what it assumes and why.
 *
 * TME also publishes a newer REST API (https://api-doc.tme.eu/v2, OAuth2
 * client credentials); this source speaks the signed one.
 */

const TME_BASE_URL = 'https://api.tme.eu'
/** Products/Search answers 20 products a page; the page size cannot be chosen (only SearchPage). */
const SEARCH_PAGE_SIZE = 20
/** The contract asks at most 50 candidates; three pages cover them. */
const MAX_SEARCH_PAGES = 3

const Code = (length: number, example: string) =>
  z
    .string()
    .regex(new RegExp(`^[A-Z]{${length}}$`), { error: `${length} capital letters` })
    .meta({ example })

const TmeConfig = z.strictObject({
  token: credential('a credential', 'The private token of the application (developers.tme.eu → My applications); it identifies and authorises, so it is kept secret'),
  appSecret: credential('a credential', "The application's secret the requests are signed with (HMAC-SHA1)"),
  baseUrl: HttpUrl.default(TME_BASE_URL)
    .meta({ description: "TME's API host; change it only to go through a proxy or a test fake" }),
  country: Code(2, 'PL').default('PL').meta({ description: 'The country TME prices and stocks for (Utils/GetCountries), e.g. PL, DE, GB' }),
  language: Code(2, 'EN').default('EN').meta({ description: 'The language of descriptions and parameter names (Utils/GetLanguages)' }),
  currency: Code(3, 'EUR').default('EUR').meta({ description: 'The currency of prices, one the country allows (Utils/GetCountries)' }),
})
export type TmeConfig = z.infer<typeof TmeConfig>

type TmeAction = 'Products/Search' | 'Products/GetProducts' | 'Products/GetPricesAndStocks' | 'Products/GetParameters' | 'Products/GetProductsFiles'

/** Request parameters: a value, or a list sent as `Name[0]`, `Name[1]`, … (SymbolList). */
export type TmeParams = Record<string, string | readonly string[]>

// ---------------------------------------------------------------------------
// What TME answers. Every answer is an envelope `{ Status, Data }`; an error
// carries `Status` "E_…" with `ErrorCode`, `ErrorMessage` and `Error` (for
// E_INPUT_PARAMS_VALIDATION_ERROR: `{ Validation: { <param>: { message } } }`).
// Fields the manual marks optional or that real answers leave out are nullish.

const Text = z.string().nullish()

const Envelope = z.object({
  Status: z.string(),
  Data: z.unknown().optional(),
  ErrorCode: z.union([z.number(), z.string()]).nullish(),
  ErrorMessage: Text,
  Error: z.unknown().optional(),
})
type Envelope = z.infer<typeof Envelope>

/** One product of Products/Search and Products/GetProducts (the manual gives both the same fields). */
const TmeProduct = z.object({
  Symbol: z.string(),
  OriginalSymbol: Text,
  Producer: Text,
  Description: Text,
  CategoryId: z.union([z.number(), z.string()]).nullish(),
  Category: Text,
  // Null, not "", when there is no photo (manual changelog 1.9.1).
  Photo: Text,
  ProductInformationPage: Text,
  ProductStatusList: z.array(z.string()).nullish(),
  MinAmount: z.number().nullish(),
  Multiples: z.number().nullish(),
})
type TmeProduct = z.infer<typeof TmeProduct>

const SearchData = z.object({ ProductList: z.array(TmeProduct), Amount: z.number().nullish(), PageNumber: z.number().nullish() })
const ProductsData = z.object({ ProductList: z.array(TmeProduct) })

const TmePrice = z.object({ Amount: z.number(), PriceValue: z.number() })
const PricesAndStocksData = z.object({
  Currency: Text,
  PriceType: Text,
  ProductList: z.array(z.object({ Symbol: z.string(), PriceList: z.array(TmePrice).nullish(), Amount: z.number().nullish() })),
})
type TmePricesAndStock = z.infer<typeof PricesAndStocksData>['ProductList'][number]

const ParametersData = z.object({
  ProductList: z.array(z.object({ Symbol: z.string(), ParameterList: z.array(z.object({ ParameterName: Text, ParameterValue: Text })).nullish() })),
})
type TmeParameter = { ParameterName?: string | null | undefined; ParameterValue?: string | null | undefined }

const FilesData = z.object({
  ProductList: z.array(
    z.object({
      Symbol: z.string(),
      Files: z.object({ DocumentList: z.array(z.object({ DocumentUrl: Text, DocumentType: Text })).nullish() }).nullish(),
    }),
  ),
})
type TmeDocument = { DocumentUrl?: string | null | undefined; DocumentType?: string | null | undefined }

// ---------------------------------------------------------------------------

export const tmeSource = defineSource({
  type: 'tme',
  title: 'TME',
  description: "Parts, stock and prices from TME (Transfer Multisort Elektronik)'s API (a private token and its application secret from developers.tme.eu).",
  documentation: 'https://developers.tme.eu/en/',
  configSchema: TmeConfig,
  secretFields: ['token', 'appSecret'],
  capabilities: { search: true, offers: true, lifecycle: true },
  // Since March 2024 TME allows two requests a second for Products/GetPrices,
  // GetStocks, GetPricesAndStocks and GetDeliveryTime (TME's notice to API
  // users, quoted in https://github.com/30350n/inventree-part-import/issues/28);
  // other actions ten a second per token (the manual's "Connection limits",
  // as summarised with https://api-doc.tme.eu/ in third-party notes). The
  // limiter counts a source's requests together, not per action, so it keeps
  // all of them to the stricter two a second: 120 a minute. TME states no
  // daily quota.
  limits: { requestsPerMinute: 120, requestsPerDay: null },

  async search(query, context, limit) {
    const phrase = query.trim()
    const wanted = Math.min(Math.floor(limit), MAX_SEARCH_PAGES * SEARCH_PAGE_SIZE, 50)
    if (!phrase || !(wanted >= 1)) return []
    const seen = new Set<string>()
    const out: SourceCandidate[] = []
    for (let page = 1; page <= MAX_SEARCH_PAGES && out.length < wanted; page++) {
      const data = _shaped(SearchData, await _call(context, 'Products/Search', _locale(context, { SearchPlain: phrase, SearchPage: String(page) })), 'Products/Search')
      for (const product of data.ProductList) {
        const candidate = _candidate(product)
        if (!candidate || seen.has(candidate.ref.toUpperCase())) continue
        seen.add(candidate.ref.toUpperCase())
        out.push(conform('TME', SourceCandidate, candidate, 'a product of its search'))
        if (out.length === wanted) break
      }
      // A short page is the last; so is one past the total TME counted.
      if (data.ProductList.length < SEARCH_PAGE_SIZE || (data.Amount ?? 0) <= page * SEARCH_PAGE_SIZE) break
    }
    return out
  },

  async fetch(ref, context) {
    const symbol = ref.trim()
    if (!symbol) return null
    const products = await _call(context, 'Products/GetProducts', _locale(context, { SymbolList: [symbol] }), { symbolRefusalIsNull: true })
    if (products === null) return null
    // An unknown symbol is left out of ProductList, with Status "OK".
    const product = _shaped(ProductsData, products, 'Products/GetProducts').ProductList.find((p) => p.Symbol.trim().toUpperCase() === symbol.toUpperCase())
    if (!product) return null
    const statuses = _statuses(product)
    const [prices, parameters, documents] = await Promise.all([
      // For NOT_IN_OFFER "stock, prices and delivery time are not meaningful" (TME's status glossary, https://api-doc.tme.eu/v2): not asked.
      statuses.includes('NOT_IN_OFFER') ? Promise.resolve(null) : _pricesAndStock(context, product.Symbol),
      _parameters(context, product.Symbol),
      _documents(context, product.Symbol),
    ])
    const part = _part(product, { statuses, prices, parameters, documents, now: context.now() })
    if (!part) throw new SourceError('bad-answer', `TME answered product ${symbol} with a symbol or manufacturer's symbol out of bounds`)
    return conform('TME', SourcePart, part, `product ${symbol}`)
  },
})

// ---------------------------------------------------------------------------
// Signing (exported for the tests)

/**
 * A value encoded as PHP's rawurlencode does (RFC 3986): every byte of its
 * UTF-8 but the unreserved `A-Z a-z 0-9 - _ . ~` as `%XX` in capitals — the
 * encoding of TME's snippets (http_build_query with PHP_QUERY_RFC3986, then
 * rawurlencode). encodeURIComponent leaves `! ' ( ) *` alone, so those are
 * encoded after it.
 */
export function tmeEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * The parameters in the order they are signed: sorted by name, as TME's
 * snippets ksort them, a list expanded in place to `Name[0]`, `Name[1]`, …
 * in its own order (ksort sorts the nested keys as numbers). Names here are
 * ASCII, so comparing UTF-16 code units is PHP's byte order.
 */
export function tmeSortedParams(params: TmeParams): [string, string][] {
  const names = Object.keys(params).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return names.flatMap((name): [string, string][] => {
    const value = params[name]!
    return typeof value === 'string' ? [[name, value]] : value.map((item, i): [string, string] => [`${name}[${i}]`, item])
  })
}

/** The signature base: `POST&` + the encoded URL + `&` + the encoded, already encoded, sorted parameters. */
export function tmeSignatureBase(url: string, params: TmeParams): string {
  const query = tmeSortedParams(params)
    .map(([name, value]) => `${tmeEncode(name)}=${tmeEncode(value)}`)
    .join('&')
  return `POST&${tmeEncode(url)}&${tmeEncode(query)}`
}

/** ApiSignature: base64 of the HMAC-SHA1 of the signature base, keyed with the application secret. */
export function tmeSignature(url: string, params: TmeParams, appSecret: string): string {
  return createHmac('sha1', appSecret).update(tmeSignatureBase(url, params), 'utf8').digest('base64')
}

// ---------------------------------------------------------------------------
// Asking

/** The country and language every Products action takes. */
function _locale(context: SourceContext<TmeConfig>, params: TmeParams): TmeParams {
  return { Country: context.config.country, Language: context.config.language, ...params }
}

/**
 * POSTs one signed action and answers its `Data`, or the SourceError TME's
 * answer stands for. With `symbolRefusalIsNull`, a refusal of the symbol
 * itself (E_INPUT_PARAMS_VALIDATION_ERROR on SymbolList: not a symbol TME
 * could hold) is null.
 */
async function _call(context: SourceContext<TmeConfig>, action: TmeAction, params: TmeParams, options: { symbolRefusalIsNull?: boolean } = {}): Promise<unknown> {
  const { token, appSecret } = context.config
  const url = `${context.config.baseUrl.replace(/\/+$/, '')}/${action}.json`
  const signed: TmeParams = { ...params, Token: token }
  // Sent in the signed order, the signature last, form-encoded as the snippets do.
  const body = new URLSearchParams([...tmeSortedParams(signed), ['ApiSignature', tmeSignature(url, signed, appSecret)]])
  const answer = await context.http.request(url, { method: 'POST', body })
  const where = _where(url)
  const secrets = [token, appSecret]
  const envelope = _envelopeOf(answer)
  if (envelope && envelope.Status !== 'OK') {
    if (options.symbolRefusalIsNull && _refusesOnlySymbols(envelope)) return null
    throw _statusFailure(envelope, answer, where, secrets)
  }
  if (!answeredOk(answer)) throw refusal(answer, where, '')
  if (!envelope) {
    const parsed = Envelope.safeParse(answer.json())
    throw new SourceError('bad-answer', `${where} answered a shape its documentation does not describe (${parsed.success ? 'no Data' : `at ${issuePath(parsed.error)}`})`)
  }
  if (envelope.Data === undefined || envelope.Data === null) throw new SourceError('bad-answer', `${where} answered Status OK without Data`)
  return envelope.Data
}

/** The answer's envelope when its body is JSON with a `Status`, whatever the HTTP status; else null. */
function _envelopeOf(answer: SourceAnswer): Envelope | null {
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return null
  }
  const parsed = Envelope.safeParse(body)
  return parsed.success ? parsed.data : null
}

/**
 * The SourceError for an error Status. The manual names the statuses but not
 * the HTTP status each comes with (a wrong signature has been seen with 400
 * and 403), so the Status decides first: E_INVALID_SIGNATURE,
 * E_AUTHORIZATION_FAILED (a token the API does not accept) and
 * E_ACTION_FORBIDDEN (a token not allowed the action) are the credentials'
 * fault; too many requests is the quota; anything else goes by the HTTP
 * status, or is a refusal when that says OK.
 */
function _statusFailure(envelope: Envelope, answer: SourceAnswer, where: string, secrets: readonly string[]): SourceError {
  const said = scrub(`${envelope.Status}${envelope.ErrorMessage ? ` ${envelope.ErrorMessage}` : ''}`, secrets).slice(0, 200)
  const kind = tmeStatusKind(envelope.Status)
  if (kind === 'auth') return new SourceError('auth', `${where}: TME refused the token or its app secret (${said})`)
  if (kind === 'quota') return new SourceError('quota', `${where}: TME's request limit is spent (${said})`, { retryAfter: _retryAfter(answer) })
  if (kind === 'unavailable') return new SourceError('unavailable', `${where}: TME could not answer (${said})`, { retryAfter: _retryAfter(answer) })
  if (!answeredOk(answer)) return statusError(answer.status, answer.headers, `${where} answered ${answer.status}: ${said}`)
  return new SourceError('refused', `${where} refused the request: ${said}`)
}

/** `Retry-After`, read the way the contract reads it for a 429. */
function _retryAfter(answer: SourceAnswer): number | undefined {
  return statusError(429, answer.headers, '').retryAfter
}

/** What an error Status says, by its name (exported for the tests). */
export function tmeStatusKind(status: string): 'auth' | 'quota' | 'unavailable' | 'other' {
  const s = status.toUpperCase()
  if (/SIGNATURE|AUTHORI[SZ]|TOKEN|FORBIDDEN|ACCESS_DENIED/.test(s)) return 'auth'
  if (/TOO_MANY|LIMIT|QUOTA|THROTTL/.test(s)) return 'quota'
  if (/UNAVAILABLE|MAINTENANCE|INTERNAL/.test(s)) return 'unavailable'
  return 'other'
}

/** E_INPUT_PARAMS_VALIDATION_ERROR whose every complaint is about SymbolList. */
function _refusesOnlySymbols(envelope: Envelope): boolean {
  if (envelope.Status !== 'E_INPUT_PARAMS_VALIDATION_ERROR') return false
  const validation = (envelope.Error as { Validation?: unknown } | null | undefined)?.Validation
  if (typeof validation !== 'object' || validation === null) return false
  const fields = Object.keys(validation)
  return fields.length > 0 && fields.every((f) => f.startsWith('SymbolList'))
}

/** GetPricesAndStocks for one symbol, with the answer's currency (the account's own, for some tokens). */
async function _pricesAndStock(context: SourceContext<TmeConfig>, symbol: string): Promise<{ currency: string | null; product: TmePricesAndStock | null }> {
  const data = _shaped(PricesAndStocksData, await _call(context, 'Products/GetPricesAndStocks', _locale(context, { Currency: context.config.currency, SymbolList: [symbol] })), 'Products/GetPricesAndStocks')
  const currency = /^[A-Z]{3}$/.test(data.Currency?.trim() ?? '') ? data.Currency!.trim() : null
  return { currency, product: data.ProductList.find((p) => _same(p.Symbol, symbol)) ?? null }
}

async function _parameters(context: SourceContext<TmeConfig>, symbol: string): Promise<TmeParameter[]> {
  const data = _shaped(ParametersData, await _call(context, 'Products/GetParameters', _locale(context, { SymbolList: [symbol] })), 'Products/GetParameters')
  return data.ProductList.find((p) => _same(p.Symbol, symbol))?.ParameterList ?? []
}

async function _documents(context: SourceContext<TmeConfig>, symbol: string): Promise<TmeDocument[]> {
  const data = _shaped(FilesData, await _call(context, 'Products/GetProductsFiles', _locale(context, { SymbolList: [symbol] })), 'Products/GetProductsFiles')
  return data.ProductList.find((p) => _same(p.Symbol, symbol))?.Files?.DocumentList ?? []
}

/** `Data` checked against the action's documented shape. */
function _shaped<T>(schema: z.ZodType<T>, data: unknown, action: TmeAction): T {
  return readAnswer(schema, data, `TME answered ${action} in a shape its documentation does not describe`)
}

/** Host and path, for messages: never the body, which carries the token. */
function _where(url: string): string {
  return hostAndPath(url, 'TME')
}

// ---------------------------------------------------------------------------
// Normalising (TME's product → SourcePart)

interface _Extras {
  statuses: string[]
  prices: { currency: string | null; product: TmePricesAndStock | null } | null
  parameters: TmeParameter[]
  documents: TmeDocument[]
  now: Date
}

function _candidate(product: TmeProduct): SourceCandidate | null {
  const ids = _ids(product)
  if (!ids) return null
  return {
    ...ids,
    manufacturer: clip(product.Producer, 200),
    description: clip(product.Description, 10_000),
    imageUrl: _url(product.Photo),
    productUrl: _url(product.ProductInformationPage),
    lifecycle: tmeLifecycle(_statuses(product)),
    // Search answers no stock; it is GetPricesAndStocks' (fetch), limited to two calls a second.
    stock: null,
  }
}

function _part(product: TmeProduct, extras: _Extras): SourcePart | null {
  const ids = _ids(product)
  if (!ids) return null
  const parameters = _mergedParameters(extras.parameters)
  const category = clip(product.Category, 200)
  const productUrl = _url(product.ProductInformationPage)
  return {
    ...ids,
    manufacturer: clip(product.Producer, 200),
    name: null,
    description: clip(product.Description, 10_000),
    categoryHints: category ? [category] : [],
    parameters: parameters.map((p) => parameterOf(p, splitTmeUnit)).slice(0, 200),
    datasheetUrl: _datasheet(extras.documents),
    imageUrl: _url(product.Photo),
    productUrl,
    lifecycle: tmeLifecycle(extras.statuses),
    supplierStatus: clip(extras.statuses.join(', '), 200),
    package: clip(parameters.find((p) => /^case$/i.test(p.name))?.values.join(', '), 200),
    rohs: null,
    offers: extras.prices ? [_offer(product, ids.ref, productUrl, extras.prices, extras.now)] : [],
  }
}

/** TME's symbol is the ref; the manufacturer's (OriginalSymbol) is the MPN, or the symbol when TME gives none. */
function _ids(product: TmeProduct): { ref: string; mpn: string } | null {
  const ref = product.Symbol.trim()
  const mpn = cleanText(product.OriginalSymbol) ?? ref
  if (!ref || ref.length > 300 || mpn.length > 200) return null
  return { ref, mpn }
}

/** TME's one offer: stock and prices from GetPricesAndStocks, order quantities from GetProducts. */
function _offer(product: TmeProduct, sku: string, url: string | null, prices: NonNullable<_Extras['prices']>, now: Date): SupplierOffer {
  return {
    supplier: 'TME',
    sku: sku.slice(0, 200),
    url,
    stock: count(prices.product?.Amount),
    minimumQuantity: positive(count(product.MinAmount)),
    multiple: positive(count(product.Multiples)),
    packaging: null,
    currency: prices.currency,
    priceBreaks: _priceBreaks(prices.product?.PriceList ?? []),
    fetchedAt: now.toISOString(),
  }
}

/**
 * Price breaks ascending by quantity, each quantity once. PriceValue is read
 * as the unit price at `Amount` and up, as TME's snippets and clients read it
 * (the answer's PriceBase is not applied: the manual does not say it scales
 * the price).
 */
function _priceBreaks(list: readonly z.infer<typeof TmePrice>[]): SupplierOffer['priceBreaks'] {
  const byQuantity = new Map<number, number>()
  for (const p of list) {
    const quantity = positive(count(p.Amount))
    if (quantity === null || !Number.isFinite(p.PriceValue) || p.PriceValue < 0) continue
    if (!byQuantity.has(quantity)) byQuantity.set(quantity, p.PriceValue)
  }
  return priceBreaksOf(byQuantity)
}

/**
 * The product's lifecycle from its ProductStatusList (manual, "Products
 * statuses returned by API"; meanings as TME's glossary at
 * https://api-doc.tme.eu/v2 gives them):
 * NOT_IN_OFFER (withdrawn from TME's offer) and INVALID (no information held,
 * no product page) are `obsolete` at this source; AVAILABLE_WHILE_STOCKS_LAST
 * (sold while stocks last, not replenished) is `nrnd`. The rest — NEW, HIT,
 * PROMOTED, SPECIAL_PRICE, HARDLY_AVAILABLE, CANNOT_BE_ORDERED (not for sale
 * in the chosen country), DANGEROUS, OVERSIZED, EXTERNAL_WAREHOUSE,
 * ONLY_FOR_SPECIAL_ORDER, PRODUCT_BLOCKED — say how it is sold, not where it
 * is in its life: a product TME lists without a withdrawal is `active`.
 */
export function tmeLifecycle(statuses: readonly string[]): SourceLifecycle {
  const has = (s: string) => statuses.some((x) => x.trim().toUpperCase() === s)
  if (has('NOT_IN_OFFER') || has('INVALID')) return 'obsolete'
  if (has('AVAILABLE_WHILE_STOCKS_LAST')) return 'nrnd'
  return 'active'
}

function _statuses(product: TmeProduct): string[] {
  return (product.ProductStatusList ?? []).map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0)
}

/** ParameterList by name, in TME's order: a parameter of several values comes once per value (Kind of package: reel, tape). */
function _mergedParameters(list: readonly TmeParameter[]): NamedValues[] {
  return mergeByName(list.map((p) => [cleanText(p.ParameterName), cleanText(p.ParameterValue)] as const))
}

/**
 * A value and its unit when the unit is plainly one, as TME writes them with
 * no space ("50V", "5.1kΩ", "700kHz", "100nF"): the library writes value
 * "5.1k", unit "Ω". Anything else (a range "3...32V", "-40...85°C", a count,
 * "SO8") is left whole, with no unit.
 */
export function splitTmeUnit(text: string): { value: string; unit: string } | null {
  const found = /^([+-]?\d+(?:\.\d+)?)\s*([pnuµμmkMG]?)(V|A|W|Hz|F|H|Ω)$/.exec(text.trim())
  if (!found) return null
  const [, number = '', prefix = '', unit = ''] = found
  return { value: `${number}${prefix === 'µ' || prefix === 'μ' ? 'u' : prefix}`, unit }
}

/** The first document of type DTE ("Documentation", TME's datasheets), or none. */
function _datasheet(documents: readonly TmeDocument[]): string | null {
  for (const d of documents) {
    if (cleanText(d.DocumentType)?.toUpperCase() !== 'DTE') continue
    const url = _url(d.DocumentUrl)
    if (url) return url
  }
  return null
}

// ---------------------------------------------------------------------------
// Small readers

function _same(a: string, b: string): boolean {
  return a.trim().toUpperCase() === b.trim().toUpperCase()
}

/**
 * An http(s) URL from TME's, which are protocol-relative ("//www.tme.eu/…"):
 * given https. A bare `%` (symbols such as "SMD0603-5K1-1%" put one in the
 * product page's path) is encoded, so the URL parses as TME meant it.
 */
function _url(value: string | null | undefined): string | null {
  let text = cleanText(value)
  if (!text) return null
  if (text.startsWith('//')) text = `https:${text}`
  text = text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
  try {
    const url = new URL(text)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
    return url.href.length <= 2000 ? url.href : null
  } catch {
    return null
  }
}

