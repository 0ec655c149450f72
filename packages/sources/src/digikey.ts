import {
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  type SourceAnswer,
  type SourceContext,
  type SourceLifecycle,
  type SourceParameter,
  type SupplierOffer,
} from '@complib/core'
import * as z from 'zod'
import { candidateOf, cleanText, clip, count, currencyCode, httpUrl, positive, priceBreaksOf, rohsCompliant } from './_internal/answer-fields'
import { clientCredentialsToken, forgetToken } from './_internal/client-credentials'
import { credential, HttpUrl } from './_internal/config-fields'
import { answeredOk, conform, joinWords, oneLine, readAnswer, refusal, scrub, scrubbed } from './_internal/errors'

/*
 * DigiKey Product Information API v4, coded against DigiKey's own documentation:
 * - https://developer.digikey.com/products/product-information-v4/productsearch/keywordsearch
 *   — POST /products/v4/search/keyword, body KeywordRequest `{ Keywords (up to
 *   250 characters), Limit (1 to 50), Offset, FilterOptionsRequest, SortOptions }`,
 *   answering KeywordResponse `{ Products, ProductsCount, ExactMatches,
 *   FilterOptions, SearchLocaleUsed, AppliedParametricFiltersDto }`;
 * - https://developer.digikey.com/products/product-information-v4/productsearch/productdetails
 *   — GET /products/v4/search/{productNumber}/productdetails, "a manufacturer part
 *   number/DigiKey part number", answering ProductDetails `{ SearchLocaleUsed, Product }`;
 *   both pages' "Download Swagger File" define the models read below (Product,
 *   ProductVariation, PriceBreak, CategoryNode, ParameterValue, ProductStatusV4,
 *   Classifications, IsoSearchLocale, DKProblemDetails) and the headers
 *   `Authorization` (Bearer), `X-DIGIKEY-Client-Id`, `X-DIGIKEY-Locale-Site`,
 *   `-Language`, `-Currency`;
 * - https://developer.digikey.com/tutorials-and-resources/oauth-20-2-legged-flow
 *   — the client-credentials token from https://api.digikey.com/v1/oauth2/token,
 *   `client_id`, `client_secret`, `grant_type` as x-www-form-urlencoded data;
 * - https://developer.digikey.com/documentation/shared-concepts — rate limits
 *   (Product Information: 120 per minute, 1000 per day) and access control;
 * - https://developer.digikey.com/faq/unexpected-api-response-or-error-code —
 *   429 with `Retry-After` when the burst limit is spent, and the gateway's
 *   JSON error `{ ErrorResponseVersion, StatusCode, ErrorMessage, ErrorDetails,
 *   RequestId, ValidationErrors }` (also what its 401s carry).
 */

const DIGIKEY_BASE_URL = 'https://api.digikey.com'
/** The 2-legged flow page's "Access Token Endpoint". */
const DIGIKEY_TOKEN_URL = 'https://api.digikey.com/v1/oauth2/token'
/** KeywordRequest: "Number of products to return between 1 and 50". */
const MAX_LIMIT = 50
/** KeywordRequest: "A String of Keywords, up to 250 characters". */
const MAX_KEYWORDS = 250

const DigikeyConfig = z.strictObject({
  clientId: credential('a client ID', 'The Client ID of your app at developer.digikey.com (subscribed to Product Information V4); sent with every request as X-DIGIKEY-Client-Id'),
  clientSecret: credential('a client secret', 'The Client Secret of the same app'),
  baseUrl: HttpUrl.default(DIGIKEY_BASE_URL).meta({ description: "DigiKey's API host; https://sandbox-api.digikey.com for a sandbox app, or a proxy or test fake" }),
  tokenUrl: HttpUrl.default(DIGIKEY_TOKEN_URL).meta({ description: 'The OAuth2 token endpoint (the sandbox has its own)' }),
  localeSite: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: 'a two-letter site code, e.g. US' })
    .default('US')
    .meta({ description: 'X-DIGIKEY-Locale-Site: which DigiKey site to search (US, CA, UK, DE, …)' }),
  localeLanguage: z
    .string()
    .regex(/^[a-z]{2,3}$/, { error: 'a language code, e.g. en' })
    .default('en')
    .meta({ description: 'X-DIGIKEY-Locale-Language: en, de, fr, ja, zhs, … (must be one the site supports)' }),
  localeCurrency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'a three-letter currency code, e.g. USD' })
    .default('USD')
    .meta({ description: 'X-DIGIKEY-Locale-Currency: USD, EUR, GBP, … (must be one the site supports)' }),
})
type DigikeyConfig = z.infer<typeof DigikeyConfig>
type DigikeyContext = SourceContext<DigikeyConfig>

// ---------------------------------------------------------------------------
// What DigiKey answers (Swagger models). Every field is optional there, so
// each is read as nullish; a field of another type than documented is a
// `bad-answer`.

const Text = z.string().nullish()
const Num = z.number().nullish()

const PriceBreak = z.object({ BreakQuantity: Num, UnitPrice: Num, TotalPrice: Num })

const ProductVariation = z.object({
  DigiKeyProductNumber: Text,
  PackageType: z.object({ Id: Num, Name: Text }).nullish(),
  StandardPricing: z.array(PriceBreak).nullish(),
  MarketPlace: z.boolean().nullish(),
  QuantityAvailableforPackageType: Num,
  MinimumOrderQuantity: Num,
  StandardPackage: Num,
})
type ProductVariation = z.infer<typeof ProductVariation>

interface CategoryNode {
  Name?: string | null | undefined
  ChildCategories?: CategoryNode[] | null | undefined
}
const CategoryNode: z.ZodType<CategoryNode> = z.lazy(() => z.object({ Name: Text, ChildCategories: z.array(CategoryNode).nullish() }))

const Product = z.object({
  Description: z.object({ ProductDescription: Text, DetailedDescription: Text }).nullish(),
  Manufacturer: z.object({ Id: Num, Name: Text }).nullish(),
  ManufacturerProductNumber: Text,
  ProductUrl: Text,
  DatasheetUrl: Text,
  PhotoUrl: Text,
  ProductVariations: z.array(ProductVariation).nullish(),
  QuantityAvailable: Num,
  ProductStatus: z.object({ Id: Num, Status: Text }).nullish(),
  Discontinued: z.boolean().nullish(),
  EndOfLife: z.boolean().nullish(),
  Parameters: z.array(z.object({ ParameterText: Text, ValueText: Text })).nullish(),
  Category: CategoryNode.nullish(),
  Classifications: z.object({ RohsStatus: Text }).nullish(),
})
type Product = z.infer<typeof Product>

const IsoSearchLocale = z.object({ Site: Text, Language: Text, Currency: Text })
type IsoSearchLocale = z.infer<typeof IsoSearchLocale>

// Products is required here: DigiKey sends it (empty when nothing matches), so an answer without it is not a KeywordResponse.
const KeywordResponse = z.object({ Products: z.array(Product), ExactMatches: z.array(Product).nullish(), ProductsCount: Num, SearchLocaleUsed: IsoSearchLocale.nullish() })
const ProductDetails = z.object({ Product, SearchLocaleUsed: IsoSearchLocale.nullish() })

/** Why DigiKey refused: DKProblemDetails (the Swagger's error model) or the gateway's error (the FAQ's). */
const ErrorBody = z.object({ title: Text, detail: Text, ErrorMessage: Text, ErrorDetails: Text })

// ---------------------------------------------------------------------------

export const digikeySource = defineSource({
  type: 'digikey',
  title: 'DigiKey',
  description: "Parts, stock and prices from DigiKey's Product Information API v4 (an app's client ID and secret from developer.digikey.com).",
  documentation: 'https://developer.digikey.com/products/product-information-v4',
  configSchema: DigikeyConfig,
  // Both: DigiKey's shared concepts ("Access Control") say the Client ID and
  // the Client Secret "should be secured and should never be made public".
  // The ID travels as a header, but only over TLS to DigiKey, as the secret does in the token request.
  secretFields: ['clientId', 'clientSecret'],
  capabilities: { search: true, offers: true, lifecycle: true },
  // https://developer.digikey.com/documentation/shared-concepts: "Product Information | 120 per minute | 1000 per day".
  limits: { requestsPerMinute: 120, requestsPerDay: 1000 },

  // The HTTP client scrubs what it is told, but the token helper's and DigiKey's own words pass through scrubbed() whatever it was told.
  search(query, context, limit) {
    return scrubbed(_secrets(context), () => _search(query, context, limit))
  },

  fetch(ref, context) {
    return scrubbed(_secrets(context), () => _fetch(ref, context))
  },
})

// ---------------------------------------------------------------------------
// The two calls

async function _search(query: string, context: DigikeyContext, limit: number): Promise<SourceCandidate[]> {
  const keywords = query.trim().slice(0, MAX_KEYWORDS)
  const wanted = Math.min(Math.floor(limit), MAX_LIMIT)
  if (!keywords || !(wanted >= 1)) return []
  const { answer, where, token } = await _ask(context, '/products/v4/search/keyword', { method: 'POST', body: { Keywords: keywords, Limit: wanted, Offset: 0 } })
  if (!answeredOk(answer)) throw _refusal(answer, where, context, token)
  const body = _read(KeywordResponse, answer, where)
  const currency = _currency(body.SearchLocaleUsed, context.config)
  const seen = new Set<string>()
  const out: SourceCandidate[] = []
  // Exact matches first: they are what an MPN or DigiKey number query meant.
  for (const product of [...(body.ExactMatches ?? []), ...body.Products]) {
    const part = _normalise(product, null, currency, context.now())
    if (!part || seen.has(part.ref.toUpperCase())) continue
    seen.add(part.ref.toUpperCase())
    out.push(conform('DigiKey', SourceCandidate, _candidate(part, product), 'a product of its search'))
    if (out.length === wanted) break
  }
  return out
}

async function _fetch(ref: string, context: DigikeyContext): Promise<SourcePart | null> {
  const wanted = ref.trim()
  if (!wanted || wanted.length > 300) return null
  const { answer, where, token } = await _ask(context, `/products/v4/search/${encodeURIComponent(wanted)}/productdetails`, { method: 'GET' })
  if (answer.status === 404) return null
  if (!answeredOk(answer)) throw _refusal(answer, where, context, token)
  const body = _read(ProductDetails, answer, where)
  const part = _normalise(body.Product, wanted, _currency(body.SearchLocaleUsed, context.config), context.now())
  if (!part) throw new SourceError('bad-answer', `${where} answered a product without a manufacturer product number`)
  return conform('DigiKey', SourcePart, part, `product ${wanted}`)
}

// ---------------------------------------------------------------------------
// Asking

interface _Asked {
  answer: SourceAnswer
  /** Host and path, for messages. */
  where: string
  /** The token the answer was had with, kept out of messages. */
  token: string
}

/**
 * One request with the token and DigiKey's headers. A 401 may come for a
 * token DigiKey no longer accepts although it has not expired by our clock
 * (revoked, or the credentials were reset): the token is forgotten and the
 * request made once more with a new one; a second 401 is for the caller.
 */
async function _ask(context: DigikeyContext, path: string, init: { method: 'GET' | 'POST'; body?: Record<string, unknown> }): Promise<_Asked> {
  const url = new URL(`${context.config.baseUrl.replace(/\/+$/, '')}${path}`)
  const where = `${url.host}${url.pathname}`
  const send = async (): Promise<_Asked> => {
    const token = await _token(context)
    const answer = await context.http.request(url, { ...init, headers: _headers(context.config, token) })
    return { answer, where, token }
  }
  const first = await send()
  if (first.answer.status !== 401) return first
  forgetToken(context)
  return send()
}

/** The headers every Product Information request carries (the Swagger's header parameters). */
function _headers(config: DigikeyConfig, token: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'x-digikey-client-id': config.clientId,
    'x-digikey-locale-site': config.localeSite,
    'x-digikey-locale-language': config.localeLanguage,
    'x-digikey-locale-currency': config.localeCurrency,
  }
}

/** The access token, from the shared client-credentials helper (kept in the memo; a refusal carries the endpoint's `Retry-After`). */
function _token(context: DigikeyContext): Promise<string> {
  const { tokenUrl, clientId, clientSecret } = context.config
  return clientCredentialsToken(context, { tokenUrl, clientId, clientSecret })
}

/** The SourceError for a refusal, quoting what DigiKey said, without a credential. */
function _refusal(answer: SourceAnswer, where: string, context: DigikeyContext, token: string): SourceError {
  return refusal(answer, where, scrub(_said(answer), [..._secrets(context), token]))
}

/** What an error body says: the problem's title and detail, or the gateway's message and details; else its first line. */
function _said(answer: SourceAnswer): string {
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return oneLine(answer.text)
  }
  const parsed = ErrorBody.safeParse(body)
  if (!parsed.success) return ''
  const { title, detail, ErrorMessage: message, ErrorDetails: details } = parsed.data
  return joinWords([message ?? title, details ?? detail])
}

/** The answer's body as `schema` describes it, or a `bad-answer`. */
function _read<T>(schema: z.ZodType<T>, answer: SourceAnswer, where: string): T {
  return readAnswer(schema, answer.json(), `${where} answered a shape its documentation does not describe`)
}

/** The credentials no message may repeat. */
function _secrets(context: DigikeyContext): string[] {
  return [context.config.clientId, context.config.clientSecret]
}

// ---------------------------------------------------------------------------
// Normalising (Product → SourcePart)

/** The currency prices are in: the one DigiKey says it used (it may differ from the one asked), else the one asked. */
function _currency(locale: IsoSearchLocale | null | undefined, config: DigikeyConfig): string {
  return currencyCode(locale?.Currency) ?? config.localeCurrency
}

/**
 * One Product as the contract's part, or null without a manufacturer
 * product number. `asked` is the ref a fetch was given: the part's ref is
 * the DigiKey number it named, else the first variation's, so an MPN
 * fetched comes back under a DigiKey number.
 */
function _normalise(p: Product, asked: string | null, currency: string, now: Date): SourcePart | null {
  const mpn = cleanText(p.ManufacturerProductNumber)
  if (!mpn || mpn.length > 200) return null
  const productUrl = httpUrl(p.ProductUrl)
  const offers = (p.ProductVariations ?? []).map((v) => _offer(v, productUrl, currency, now)).filter((o): o is SupplierOffer => o !== null)
  const named = asked ? offers.find((o) => o.sku?.toUpperCase() === asked.toUpperCase()) : undefined
  const parameters = _parameters(p)
  const supplierStatus = clip(p.ProductStatus?.Status, 200)
  return {
    ref: (named ?? offers[0])?.sku ?? asked ?? mpn,
    manufacturer: clip(p.Manufacturer?.Name, 200),
    mpn,
    // DigiKey's ProductDescription is a terse catalogue line ("IC OPAMP GP 2 CIRCUIT 8SOIC"), not a name: the MPN stays the name.
    name: null,
    description: clip(p.Description?.DetailedDescription, 10_000) ?? clip(p.Description?.ProductDescription, 10_000),
    categoryHints: _categoryHints(p.Category),
    parameters: parameters.slice(0, 200),
    datasheetUrl: httpUrl(p.DatasheetUrl),
    imageUrl: httpUrl(p.PhotoUrl),
    productUrl,
    lifecycle: digikeyLifecycle(supplierStatus, { endOfLife: p.EndOfLife === true }),
    supplierStatus,
    package: clip((_parameter(parameters, 'Supplier Device Package') ?? _parameter(parameters, 'Package / Case'))?.value, 200),
    rohs: digikeyRohs(p.Classifications?.RohsStatus),
    offers: offers.slice(0, 50),
  }
}

function _candidate(part: SourcePart, p: Product): SourceCandidate {
  // QuantityAvailable is documented as the sum over the variations; summed here when it is missing.
  return candidateOf(part, count(p.QuantityAvailable) ?? _sumStock(part.offers))
}

/** One ProductVariation (a packaging with its own DigiKey number) as an offer; none without a DigiKey number to order by. */
function _offer(v: ProductVariation, url: string | null, currency: string, now: Date): SupplierOffer | null {
  const sku = cleanText(v.DigiKeyProductNumber)
  if (!sku || sku.length > 200) return null
  const packaging = clip(v.PackageType?.Name, 200)
  return {
    supplier: 'DigiKey',
    sku,
    url,
    stock: count(v.QuantityAvailableforPackageType),
    minimumQuantity: positive(v.MinimumOrderQuantity),
    // Tape & Reel is sold in whole reels of StandardPackage; other packagings (cut tape, tube, Digi-Reel) by the piece.
    multiple: packaging && /tape\s*&\s*reel|\(TR\)/i.test(packaging) ? positive(v.StandardPackage) : null,
    packaging,
    currency,
    priceBreaks: _priceBreaks(v.StandardPricing ?? []),
    fetchedAt: now.toISOString(),
  }
}

/** StandardPricing as price breaks, ascending by quantity, each quantity once. */
function _priceBreaks(raw: z.infer<typeof PriceBreak>[]): SupplierOffer['priceBreaks'] {
  const byQuantity = new Map<number, number>()
  for (const b of raw) {
    const quantity = positive(b.BreakQuantity)
    const price = b.UnitPrice
    if (quantity === null || typeof price !== 'number' || !Number.isFinite(price) || price < 0) continue
    if (!byQuantity.has(quantity)) byQuantity.set(quantity, price)
  }
  return priceBreaksOf(byQuantity)
}

/** Parameters as DigiKey words them (ParameterText, ValueText); "-" is DigiKey's "no value". */
function _parameters(p: Product): SourceParameter[] {
  const out: SourceParameter[] = []
  for (const raw of p.Parameters ?? []) {
    const name = cleanText(raw.ParameterText)
    const value = cleanText(raw.ValueText)
    if (!name || !value || value === '-') continue
    out.push({ name: name.slice(0, 100), value: value.slice(0, 500), unit: null })
  }
  return out
}

function _parameter(parameters: SourceParameter[], name: string): SourceParameter | undefined {
  return parameters.find((p) => p.name.toLowerCase() === name.toLowerCase())
}

/** The category and its first child at each level, broadest first (a product sits in one leaf). */
function _categoryHints(category: CategoryNode | null | undefined): string[] {
  const out: string[] = []
  for (let node = category; node && out.length < 10; node = node.ChildCategories?.[0]) {
    const name = clip(node.Name, 200)
    if (name) out.push(name)
  }
  return out
}

function _sumStock(offers: SupplierOffer[]): number | null {
  const counts = offers.map((o) => o.stock).filter((n): n is number => n !== null)
  return counts.length > 0 ? counts.reduce((a, b) => a + b, 0) : null
}

// ---------------------------------------------------------------------------
// Reading DigiKey's words (exported for the tests)

/**
 * A lifecycle in the contract's words from ProductStatus.Status, the values
 * of DigiKey's "Product Status" filter: "Active"; "Not For New Designs"
 * (`nrnd`); "Last Time Buy" (still orderable until the date: `nrnd`, as
 * NRND is the contract's "going away"); "Obsolete"; "Preliminary"
 * (`preview`). "Discontinued at Digi-Key" says only that DigiKey stopped
 * carrying it — the Product's `Discontinued` — not that the maker stopped:
 * `unknown`, unless `EndOfLife` ("no longer manufactured") is set too.
 */
export function digikeyLifecycle(status: string | null | undefined, flags: { endOfLife?: boolean } = {}): SourceLifecycle {
  const text = cleanText(status)?.toLowerCase() ?? ''
  if (/obsolete/.test(text)) return 'obsolete'
  if (/not (?:for|recommended for) new designs?|\bnrnd\b/.test(text)) return 'nrnd'
  if (/last time buy/.test(text)) return 'nrnd'
  if (/preliminary|preview|pre-?production/.test(text)) return 'preview'
  if (flags.endOfLife) return 'obsolete'
  if (/^active$/.test(text)) return 'active'
  return 'unknown'
}

/** Classifications.RohsStatus: "ROHS3 Compliant", "RoHS Compliant by Exemption" are compliant; "RoHS non-compliant" is not; "Not Applicable", "Vendor undefined" say nothing. */
export function digikeyRohs(value: string | null | undefined): boolean | null {
  return rohsCompliant(value)
}

// ---------------------------------------------------------------------------
// Small readers

