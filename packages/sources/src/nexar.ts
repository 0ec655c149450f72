import {
  SourceCandidate,
  SourceError,
  SourcePart,
  defineSource,
  isSourceError,
  statusError,
  type SourceContext,
  type SourceLifecycle,
  type SourceParameter,
  type SupplierOffer,
} from '@complib/core'
import type { ClientError } from 'graphql-request'
import * as z from 'zod'
import { cleanText, clip, count, currencyCode, httpUrl, positive, priceBreaksOf, rohsCompliant } from './_internal/answer-fields'
import { clientCredentialsToken, forgetToken } from './_internal/client-credentials'
import { credential, HttpUrl } from './_internal/config-fields'
import { conform, hostAndPath, oneLine, readAnswer, scrub, scrubbed } from './_internal/errors'

/*
 * Nexar's Supply API (Octopart's data, GraphQL), coded against Nexar's and
 * Altium's own documentation:
 * - https://support.nexar.com/support/solutions/articles/101000434598-how-do-i-setup-authentication-in-the-banana-cake-pop-bcp-ide-
 *   — supply applications use the client-credentials flow: token URL
 *   https://identity.nexar.com/connect/token, scope `supply.domain`;
 * - https://support.nexar.com/support/solutions/articles/101000434603-jquery-example-to-generate-an-access-token
 *   and https://www.altium.com/documentation/altium-developer-center/octopart/api/authorization
 *   — the form body (`grant_type=client_credentials`, `client_id`,
 *   `client_secret`, `scope`), the answer `{ access_token, expires_in: 86400,
 *   token_type: "Bearer", scope }`, to be cached for its 24 hours; the token
 *   goes as `Authorization: Bearer …` to POST https://api.nexar.com/graphql;
 *   without a valid one the API answers 401;
 * - https://support.nexar.com/support/solutions/articles/101000452406-application-access-token
 *   — a refused token is a GraphQL error with `extensions.code`
 *   `AuthInvalidToken` or `AuthExpiredToken` ("request a new access token"),
 *   and the identity server allows only 2 tokens a second, 200 per 15 minutes;
 * - https://github.com/NexarDeveloper/web-supply-demo-blazor/blob/main/Nexar.Client/schema.graphql
 *   — Nexar's published schema: `supSearchMpn` and `supSearch(q, country,
 *   currency, start, limit, …): SupPartResultSet!`, `supParts(ids: [String!]!,
 *   country, currency, …): [SupPart]!`, and the types SupPartResultSet,
 *   SupPartResult, SupPart, SupCompany, SupSpec, SupAttribute, SupCategory,
 *   SupDocument, SupImage, SupDescription, SupPartSeller, SupOffer, SupPricePoint;
 * - https://www.altium.com/documentation/altium-developer-center/octopart/api/example-queries
 *   — `country` (ISO 3166 alpha-2) and `currency` (ISO 4217), US and USD by default;
 * - https://www.altium.com/documentation/altium-developer-center/octopart/api/inventory
 *   — `inventoryLevel` below 0 is a code (-1 non-stocked, -2 in stock without
 *   a quantity, -3 unknown, -4 RFQ), not a count;
 * - https://support.nexar.com/support/solutions/articles/101000434626-supply-lifecycle-information-for-parts
 *   — the `lifecyclestatus` spec: one of EOL, NRND, New, Obsolete, Production,
 *   displayed as "Production (Last Updated: 2 years ago)";
 * - https://support.nexar.com/support/solutions/articles/101000476314-part-limits-and-how-they-work
 *   and https://support.nexar.com/support/solutions/articles/101000434614-what-are-part-limits-and-when-do-they-reset-
 *   — plans count the parts returned against a monthly limit, reset on the
 *   1st; `limit` is at most 100;
 * - https://support.nexar.com/support/solutions/articles/101000437414-what-error-is-returned-when-the-part-limit-is-reached-
 *   — a spent part limit is a GraphQL error "You have exceeded your part
 *   limit of …", currently with HTTP status 500;
 * - https://support.nexar.com/support/solutions/articles/101000434616-what-are-the-supply-api-rate-limits-
 *   — "We recommend a maximum of 300 requests per minute".
 */

const NEXAR_API_URL = 'https://api.nexar.com/graphql'
const NEXAR_TOKEN_URL = 'https://identity.nexar.com/connect/token'
/** The scope of a supply application (the BCP set-up page). */
const SUPPLY_SCOPE = 'supply.domain'
/** "This of course should be at least 1 but is capped at 100" (part limits). */
const MAX_LIMIT = 100
/** The contract's bound on a part's offers. */
const MAX_OFFERS = 50
/** SupCategory: "Category id `4161` is the root of tree" — it names the whole catalogue, not the part's category. */
const ROOT_CATEGORY_ID = '4161'
/**
 * An Octopart part id (digits) or an APIv3 UID (hex), which `supParts` also
 * takes. Anything else cannot name a part, so it is answered null without
 * spending a request.
 */
const PART_ID = /^[0-9A-Za-z]{1,40}$/

const NexarConfig = z.strictObject({
  clientId: credential('a client ID', 'The Client ID of a Nexar application with the supply scope (portal.nexar.com → Apps → Authorization)'),
  clientSecret: credential('a client secret', 'The Client Secret of the same application'),
  apiUrl: HttpUrl.default(NEXAR_API_URL).meta({ description: "Nexar's GraphQL endpoint, or a proxy or test fake" }),
  tokenUrl: HttpUrl.default(NEXAR_TOKEN_URL).meta({ description: "The OAuth2 token endpoint of Nexar's identity server" }),
  scope: z
    .string()
    .trim()
    .min(1)
    .max(200)
    // RFC 6749 §3.3: space-separated scope-tokens of printable ASCII without `"` or `\`.
    .regex(/^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/, { error: 'space-separated OAuth2 scopes' })
    .default(SUPPLY_SCOPE)
    .meta({ description: 'The OAuth2 scope asked for (supply.domain for supply queries)' }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: 'an ISO 3166 alpha-2 country code, e.g. US' })
    .default('US')
    .meta({ description: "`country` of supSearchMpn and supParts: whose offers and stock are shown (sellers' stock differs by country)" }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'an ISO 4217 currency code, e.g. USD' })
    .default('USD')
    .meta({ description: '`currency` of supSearchMpn and supParts; an offer priced in it is given in it, else in its own currency' }),
})
type NexarConfig = z.infer<typeof NexarConfig>
type NexarContext = SourceContext<NexarConfig>

// ---------------------------------------------------------------------------
// The queries. Every value, the user's query above all, travels as a
// variable: nothing typed by a user is ever spliced into the document.

/** What a search shows of each part (SupPart fields); `specs` only for the lifecycle. */
const SEARCH_PART_FIELDS = `
        id
        mpn
        manufacturer { name }
        shortDescription
        bestImage { url }
        octopartUrl
        totalAvail
        specs { attribute { shortname } value displayValue }`

const SEARCH_MPN = /* GraphQL */ `
  query ComplibSearchMpn($q: String!, $limit: Int!, $country: String!, $currency: String!) {
    supSearchMpn(q: $q, limit: $limit, country: $country, currency: $currency) {
      hits
      results {
        part {${SEARCH_PART_FIELDS}
        }
      }
    }
  }
`

const SEARCH_KEYWORDS = /* GraphQL */ `
  query ComplibSearch($q: String!, $limit: Int!, $country: String!, $currency: String!) {
    supSearch(q: $q, limit: $limit, country: $country, currency: $currency) {
      hits
      results {
        part {${SEARCH_PART_FIELDS}
        }
      }
    }
  }
`

const PARTS = /* GraphQL */ `
  query ComplibParts($ids: [String!]!, $country: String!, $currency: String!) {
    supParts(ids: $ids, country: $country, currency: $currency) {
      id
      mpn
      manufacturer { name }
      shortDescription
      descriptions { text }
      category { id parentId name ancestors { id parentId name } }
      specs { attribute { name shortname } value units unitsSymbol displayValue }
      bestDatasheet { url }
      bestImage { url }
      octopartUrl
      sellers {
        company { name }
        offers { sku inventoryLevel moq orderMultiple packaging clickUrl prices { quantity price currency } }
      }
    }
  }
`

// ---------------------------------------------------------------------------
// What Nexar answers. The schema makes most of these non-null, but the
// answer is read as nullish where that costs nothing; a value of another
// type than the schema's, or a missing structure, is a `bad-answer`.

const Text = z.string().nullish()
const Num = z.number().nullish()
const Named = z.object({ name: Text }).nullish()
const Link = z.object({ url: Text }).nullish()

const Spec = z.object({
  attribute: z.object({ name: Text, shortname: Text }).nullish(),
  value: Text,
  units: Text,
  unitsSymbol: Text,
  displayValue: Text,
})
type Spec = z.infer<typeof Spec>

const PricePoint = z.object({ quantity: Num, price: Num, currency: Text })
type PricePoint = z.infer<typeof PricePoint>

const Offer = z.object({
  sku: Text,
  inventoryLevel: Num,
  moq: Num,
  orderMultiple: Num,
  packaging: Text,
  clickUrl: Text,
  prices: z.array(PricePoint).nullish(),
})
type Offer = z.infer<typeof Offer>

const Seller = z.object({ company: Named, offers: z.array(Offer).nullish() })
type Seller = z.infer<typeof Seller>

const CategoryNode = z.object({ id: Text, parentId: Text, name: Text })
type CategoryNode = z.infer<typeof CategoryNode>
const Category = CategoryNode.extend({ ancestors: z.array(CategoryNode).nullish() })
type Category = z.infer<typeof Category>

// `id` is ID! and the ref of everything else: a part without one is not a SupPart.
const PartSummary = z.object({
  id: z.string().min(1),
  mpn: Text,
  manufacturer: Named,
  shortDescription: Text,
  bestImage: Link,
  octopartUrl: Text,
  totalAvail: Num,
  specs: z.array(Spec).nullish(),
})
type PartSummary = z.infer<typeof PartSummary>

const PartDetail = PartSummary.extend({
  descriptions: z.array(z.object({ text: Text })).nullish(),
  category: Category.nullish(),
  bestDatasheet: Link,
  sellers: z.array(Seller).nullish(),
})
type PartDetail = z.infer<typeof PartDetail>

// SupPartResultSet.results is `[SupPartResult!]` (nullable): null is no results.
const ResultSet = z.object({ hits: Num, results: z.array(z.object({ part: PartSummary })).nullish() })
const SearchMpnAnswer = z.object({ supSearchMpn: ResultSet })
const SearchAnswer = z.object({ supSearch: ResultSet })
// supParts is `[SupPart]!`: an id it does not know may come back null (or not at all).
const PartsAnswer = z.object({ supParts: z.array(PartDetail.nullable()) })

/** One entry of a GraphQL response's `errors` (GraphQL spec §7.1.2), as far as it is read. */
const GraphQLErrorEntry = z.object({
  message: z.string().catch(''),
  extensions: z.object({ code: z.string().optional(), specifiedBy: z.string().optional() }).optional().catch(undefined),
})
type GraphQLErrorEntry = z.infer<typeof GraphQLErrorEntry>

// ---------------------------------------------------------------------------

export const nexarSource = defineSource({
  type: 'nexar',
  title: 'Nexar (Octopart)',
  description: "Parts, specs, lifecycle and every distributor's offers from Octopart, through Nexar's Supply GraphQL API (a supply application's client ID and secret from portal.nexar.com).",
  documentation: 'https://support.nexar.com/support/solutions/articles/101000470421-introduction-to-working-with-supply-data',
  configSchema: NexarConfig,
  // Only the secret: the client ID is OAuth2's public client identifier,
  // "not a secret" and never enough to authenticate alone (RFC 6749 §2.2),
  // and Nexar asks to store only the secret securely ("Your Client Secret is
  // shown once", https://www.altium.com/documentation/altium-developer-center/quick-starts/octopart-api).
  // Showing the ID lets a user see which Nexar application a source uses.
  secretFields: ['clientSecret'],
  capabilities: { search: true, offers: true, lifecycle: true },
  // Nexar meters parts per month, not requests per day (its part limit is
  // enforced by Nexar itself, answered as `quota`); per minute, its own
  // recommendation: 300 (supply API rate limits article, above).
  limits: { requestsPerMinute: 300, requestsPerDay: null },

  // The HTTP client scrubs what it is told, but the token helper's and Nexar's own words pass through scrubbed() whatever it was told.
  search(query, context, limit) {
    return scrubbed([context.config.clientSecret], () => _search(query, context, limit))
  },

  fetch(ref, context) {
    return scrubbed([context.config.clientSecret], () => _fetch(ref, context))
  },
})

// ---------------------------------------------------------------------------
// The two calls

async function _search(query: string, context: NexarContext, limit: number): Promise<SourceCandidate[]> {
  const q = query.trim()
  // Every part returned counts against the plan's part limit: ask for no more than wanted.
  const wanted = Math.min(Math.floor(limit), MAX_LIMIT)
  if (!q || !(wanted >= 1)) return []
  const { country, currency } = context.config
  const variables = { q, limit: wanted, country, currency }
  const set = _isMpnLike(q)
    ? _read(SearchMpnAnswer, await _ask(context, SEARCH_MPN, variables), context, 'a supSearchMpn result').supSearchMpn
    : _read(SearchAnswer, await _ask(context, SEARCH_KEYWORDS, variables), context, 'a supSearch result').supSearch
  const seen = new Set<string>()
  const out: SourceCandidate[] = []
  for (const { part } of set.results ?? []) {
    const candidate = _candidate(part)
    if (!candidate || seen.has(candidate.ref)) continue
    seen.add(candidate.ref)
    out.push(conform('Nexar', SourceCandidate, candidate, 'a part of its search'))
    if (out.length === wanted) break
  }
  return out
}

async function _fetch(ref: string, context: NexarContext): Promise<SourcePart | null> {
  const id = ref.trim()
  if (!PART_ID.test(id)) return null
  const { country, currency } = context.config
  const answer = _read(PartsAnswer, await _ask(context, PARTS, { ids: [id], country, currency }), context, 'a supParts result')
  // One id was asked: the first part is it (an APIv3 UID comes back under the part's current id).
  const part = answer.supParts.find((p): p is PartDetail => p !== null)
  if (!part) return null
  const normalised = _normalise(part, context)
  if (!normalised) throw new SourceError('bad-answer', `${_where(context.config.apiUrl)} answered part ${id} without a manufacturer part number`)
  return conform('Nexar', SourcePart, normalised, `part ${id}`)
}

/**
 * Whether a query reads as an MPN (one word with a digit: "LM358",
 * "GRM188R71H104KA93D"), asked with supSearchMpn, which matches part numbers
 * (partially); anything else ("op amp", "resistor") goes to supSearch,
 * Octopart's keyword search.
 */
function _isMpnLike(q: string): boolean {
  return /^\S+$/.test(q) && /\d/.test(q)
}

// ---------------------------------------------------------------------------
// Asking

/**
 * One GraphQL request through graphql-request, over the source's bounded
 * fetch, with the cached token. A token Nexar refuses although our clock
 * says it is valid (revoked, or the credentials were reset) is forgotten and
 * the request made once more with a new one; a second refusal is the
 * caller's.
 */
async function _ask(context: NexarContext, document: string, variables: Record<string, unknown>): Promise<unknown> {
  const { GraphQLClient } = await _graphqlRequest()
  for (let attempt = 1; ; attempt++) {
    const token = await _token(context)
    const client = new GraphQLClient(context.config.apiUrl, { fetch: context.http.fetch, headers: { authorization: `Bearer ${token}` } })
    try {
      return await client.request<unknown>({ document, variables, signal: context.signal })
    } catch (error) {
      if (attempt === 1 && _tokenRefused(error)) {
        forgetToken(context)
        continue
      }
      throw _sourceError(error, context, token)
    }
  }
}

/**
 * graphql-request, loaded with the first request: with the graphql package it
 * brings, it took about 80 ms of every server's start (a CPU profile of
 * `complib serve`), for a source most libraries never ask.
 */
let _loaded: typeof import('graphql-request') | undefined
async function _graphqlRequest(): Promise<typeof import('graphql-request')> {
  return (_loaded ??= await import('graphql-request'))
}

/** Whether `error` is graphql-request's ClientError (none can be before it is loaded). */
function _isClientError(error: unknown): error is ClientError {
  return _loaded !== undefined && error instanceof _loaded.ClientError
}

/**
 * The access token, from the shared client-credentials helper (kept in the
 * memo for its 24 hours, as Nexar asks; a refusal carries the identity
 * server's `Retry-After`).
 */
function _token(context: NexarContext): Promise<string> {
  const { tokenUrl, clientId, clientSecret, scope } = context.config
  return clientCredentialsToken(context, { tokenUrl, clientId, clientSecret, scope })
}

/** A refusal of the token itself: HTTP 401, or the documented AuthInvalidToken / AuthExpiredToken codes. */
function _tokenRefused(error: unknown): boolean {
  if (!_isClientError(error)) return false
  return error.response.status === 401 || _errorsOf(error.response.errors).some((e) => TOKEN_CODES.has(e.extensions?.code ?? ''))
}

const TOKEN_CODES = new Set(['AuthInvalidToken', 'AuthExpiredToken'])

/** The data as `schema` describes it, or a `bad-answer`. */
function _read<T>(schema: z.ZodType<T>, data: unknown, context: NexarContext, what: string): T {
  return readAnswer(schema, data, `${_where(context.config.apiUrl)} answered ${what} of a shape its schema does not describe`)
}

// ---------------------------------------------------------------------------
// Failures

/**
 * What went wrong, as a SourceError. One thrown by the bounded fetch (a
 * timeout, an answer too long, no connection) comes through as itself,
 * however graphql-request wrapped it; a ClientError is read for its GraphQL
 * errors and its status; anything else graphql-request throws is a 2xx
 * answer that is not a GraphQL response.
 */
function _sourceError(error: unknown, context: NexarContext, token: string): SourceError {
  const own = _sourceErrorIn(error)
  if (own) return own
  const where = _where(context.config.apiUrl)
  if (_isClientError(error)) return _clientError(error, where, [context.config.clientSecret, token], context.now())
  return new SourceError('bad-answer', `${where} answered something that is not a GraphQL response`, { cause: error })
}

/** The SourceError `error` is or was caused by, if any. */
function _sourceErrorIn(error: unknown): SourceError | null {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; at = (at as { cause?: unknown }).cause, depth++) {
    if (isSourceError(at)) return at
    if (typeof at !== 'object') break
  }
  return null
}

/**
 * A ClientError in the contract's words. Nexar's GraphQL errors decide first
 * (its part-limit error comes with status 500, and is no outage): one about
 * the token or authorization is `auth`, the part limit `quota` until the
 * limit resets, a query its schema does not take `bad-answer` (our fixed
 * queries no longer fit its schema). Otherwise the status decides (401/403
 * `auth`, 429 `quota`, 408/5xx `unavailable`); and a GraphQL error on any
 * other status is a refusal of the request.
 */
function _clientError(error: ClientError, where: string, secrets: string[], now: Date): SourceError {
  const { status, headers } = error.response
  const errors = _errorsOf(error.response.errors)
  const said = scrub(_said(errors, error.response.body), secrets)
  const message = `${where} answered ${status}${said ? `: ${said}` : ''}`
  const kind = _errorsKind(errors)
  if (kind === 'quota') return new SourceError('quota', message, { retryAfter: statusError(status, headers, message).retryAfter ?? _secondsToNextMonth(now) })
  if (kind) return new SourceError(kind, message)
  if (status === 401 || status === 403 || status === 429 || status === 408 || status >= 500) return statusError(status, headers, message)
  return new SourceError('refused', message)
}

function _errorsOf(raw: unknown): GraphQLErrorEntry[] {
  if (!Array.isArray(raw)) return []
  return raw.flatMap((e) => {
    const parsed = GraphQLErrorEntry.safeParse(e)
    return parsed.success ? [parsed.data] : []
  })
}

/** Which kind the GraphQL errors name, by Nexar's documented codes and messages, or null. */
function _errorsKind(errors: GraphQLErrorEntry[]): 'auth' | 'quota' | 'bad-answer' | null {
  const code = (e: GraphQLErrorEntry) => e.extensions?.code ?? ''
  if (errors.some((e) => AUTH_CODES.has(code(e)) || /\b(?:not authori[sz]ed|unauthori[sz]ed|access token|token validation|authenticat)/i.test(e.message))) return 'auth'
  // "You have exceeded your part limit of 605. Please upgrade your plan."
  if (errors.some((e) => /part limit|rate limit|too many requests/i.test(e.message))) return 'quota'
  // Validation errors (Hot Chocolate, which serves Nexar's API, words them "The field `x` does not exist on the type `Y`.").
  if (errors.some((e) => e.extensions?.specifiedBy !== undefined || /does not exist on the type|cannot query field|unknown (?:argument|type)/i.test(e.message))) return 'bad-answer'
  return null
}

// Nexar's codes for a refused token, and Hot Chocolate's authorization codes.
const AUTH_CODES = new Set([...TOKEN_CODES, 'AUTH_NOT_AUTHENTICATED', 'AUTH_NOT_AUTHORIZED', 'AUTH_NO_DEFAULT_POLICY'])

/** What Nexar said: its errors' messages, or the body's first line, bounded. */
function _said(errors: GraphQLErrorEntry[], body: string): string {
  return oneLine(errors.length > 0 ? [...new Set(errors.map((e) => e.message.trim()).filter(Boolean))].join(' — ') : body)
}

/** Seconds until the 1st of next month (UTC), when Nexar resets part limits. */
function _secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000))
}

/** Host and path of Nexar's endpoint, for messages. */
function _where(url: string): string {
  return hostAndPath(url, 'Nexar')
}

// ---------------------------------------------------------------------------
// Normalising (SupPart → the contract)

function _candidate(part: PartSummary): SourceCandidate | null {
  const mpn = cleanText(part.mpn)
  if (!mpn || mpn.length > 200) return null
  return {
    ref: part.id,
    manufacturer: clip(part.manufacturer?.name, 200),
    mpn,
    description: clip(part.shortDescription, 10_000),
    imageUrl: httpUrl(part.bestImage?.url),
    productUrl: httpUrl(part.octopartUrl),
    lifecycle: nexarLifecycle(_lifecycleWords(_spec(part.specs, 'lifecyclestatus'))),
    // SupPart.totalAvail: "Sum of stock available across all distributors".
    stock: count(part.totalAvail),
  }
}

/** One SupPart as the contract's part, or null without an MPN. */
function _normalise(p: PartDetail, context: NexarContext): SourcePart | null {
  const mpn = cleanText(p.mpn)
  if (!mpn || mpn.length > 200) return null
  const supplierStatus = _lifecycleWords(_spec(p.specs, 'lifecyclestatus'))
  return {
    ref: p.id,
    manufacturer: clip(p.manufacturer?.name, 200),
    mpn,
    // SupPart.name is "manufacturer + mpn for easy display", not a name of its own: the MPN stays the name.
    name: null,
    description: clip(p.shortDescription, 10_000) ?? clip((p.descriptions ?? []).map((d) => d.text).find((t) => cleanText(t)), 10_000),
    categoryHints: _categoryHints(p.category),
    parameters: _parameters(p.specs),
    datasheetUrl: httpUrl(p.bestDatasheet?.url),
    imageUrl: httpUrl(p.bestImage?.url),
    productUrl: httpUrl(p.octopartUrl),
    lifecycle: nexarLifecycle(supplierStatus),
    supplierStatus,
    package: clip(_specText(_spec(p.specs, 'case_package')), 200),
    rohs: nexarRohs(_specText(_spec(p.specs, 'rohs'))),
    offers: _offers(p.sellers ?? [], context.config.currency, context.now()),
  }
}

/** One offer per seller offer, the seller's company as the supplier, at most the contract's 50. */
function _offers(sellers: Seller[], currency: string, now: Date): SupplierOffer[] {
  const out: SupplierOffer[] = []
  for (const seller of sellers) {
    const supplier = clip(seller.company?.name, 200)
    if (!supplier) continue
    for (const offer of seller.offers ?? []) {
      if (out.length === MAX_OFFERS) return out
      out.push(_offer(supplier, offer, currency, now))
    }
  }
  return out
}

function _offer(supplier: string, o: Offer, preferred: string, now: Date): SupplierOffer {
  const { currency, priceBreaks } = _prices(o.prices ?? [], preferred)
  return {
    supplier,
    sku: clip(o.sku, 200),
    // clickUrl: "The URL to view offer on distributor website", by way of Octopart's redirect.
    url: httpUrl(o.clickUrl),
    // Below 0 is a special code (non-stocked, "yes", unknown, RFQ), not a quantity.
    stock: count(o.inventoryLevel),
    minimumQuantity: positive(o.moq),
    multiple: positive(o.orderMultiple),
    packaging: clip(o.packaging, 200),
    currency,
    priceBreaks,
    fetchedAt: now.toISOString(),
  }
}

/**
 * An offer's price breaks in one currency: the one asked for when the seller
 * prices in it, else the seller's first. Each SupPricePoint is in the
 * seller's own currency; its `convertedPrice` is only Nexar's estimate, so it
 * is not taken.
 */
function _prices(points: PricePoint[], preferred: string): { currency: string | null; priceBreaks: SupplierOffer['priceBreaks'] } {
  const currencyOf = (p: PricePoint) => currencyCode(p.currency)
  const currencies = points.map(currencyOf).filter((c): c is string => c !== null)
  const currency = currencies.includes(preferred) ? preferred : (currencies[0] ?? null)
  if (currency === null) return { currency: null, priceBreaks: [] }
  const byQuantity = new Map<number, number>()
  for (const p of points) {
    const quantity = positive(p.quantity)
    if (currencyOf(p) !== currency || quantity === null || typeof p.price !== 'number' || !Number.isFinite(p.price) || p.price < 0) continue
    if (!byQuantity.has(quantity)) byQuantity.set(quantity, p.price)
  }
  return { currency, priceBreaks: priceBreaksOf(byQuantity) }
}

/**
 * Specs as parameters: a value with units as the value and its unit symbol,
 * else the display value whole. The lifecycle and RoHS specs are left out:
 * they are the part's lifecycle and `rohs`, and the lifecycle's display value
 * carries a relative "Last Updated" time that would differ at every refresh.
 */
function _parameters(specs: Spec[] | null | undefined): SourceParameter[] {
  const out: SourceParameter[] = []
  for (const s of specs ?? []) {
    const name = clip(s.attribute?.name, 100)
    if (!name || OWN_FIELDS.has(s.attribute?.shortname ?? '')) continue
    const value = cleanText(s.value)
    const unit = cleanText(s.unitsSymbol) ?? cleanText(s.units)
    const parameter = value && unit ? { value, unit } : { value: cleanText(s.displayValue) ?? value, unit: null }
    if (!parameter.value) continue
    out.push({ name, value: parameter.value.slice(0, 500), unit: parameter.unit?.slice(0, 32) ?? null })
    if (out.length === 200) break
  }
  return out
}

const OWN_FIELDS = new Set(['lifecyclestatus', 'manufacturerlifecyclestatus', 'rohs'])

function _spec(specs: Spec[] | null | undefined, shortname: string): Spec | undefined {
  return (specs ?? []).find((s) => s.attribute?.shortname === shortname)
}

function _specText(spec: Spec | undefined): string | null {
  return cleanText(spec?.value) ?? cleanText(spec?.displayValue)
}

/**
 * The lifecycle in Nexar's words: the spec's value ("Production"), else its
 * display value without the "(Last Updated: …)" Nexar appends, a relative
 * time that would make every refresh look like a change.
 */
function _lifecycleWords(spec: Spec | undefined): string | null {
  const words = cleanText(spec?.value) ?? cleanText(spec?.displayValue?.replace(/\s*\(last updated:[^)]*\)\s*$/i, ''))
  return words ? words.slice(0, 200) : null
}

/**
 * The category's names, broadest first: its ancestors in the order their
 * `parentId`s chain them (an answer's list order is not documented), else as
 * listed, then the category itself; the tree's root is left out.
 */
function _categoryHints(category: Category | null | undefined): string[] {
  if (!category) return []
  const ancestors = category.ancestors ?? []
  const byId = new Map(ancestors.filter((a) => a.id).map((a) => [a.id as string, a]))
  const chain: CategoryNode[] = [category]
  for (let at = byId.get(category.parentId ?? ''); at && !chain.includes(at); at = byId.get(at.parentId ?? '')) chain.unshift(at)
  const path = chain.length === ancestors.length + 1 ? chain : [...ancestors, category]
  return path
    .filter((c) => c.id !== ROOT_CATEGORY_ID)
    .map((c) => clip(c.name, 200))
    .filter((n): n is string => n !== null)
    .slice(0, 10)
}

// ---------------------------------------------------------------------------
// Reading Nexar's words (exported for the tests)

/**
 * A lifecycle in the contract's words from the `lifecyclestatus` spec, whose
 * documented values are Production, NRND, EOL, Obsolete and New: Production
 * (or Active) is `active`; NRND (not recommended for new designs) `nrnd`;
 * Obsolete and EOL ("End of life": the maker has ended it) `obsolete`; New
 * (or Pre-release) `preview`. Anything else says nothing usable.
 */
export function nexarLifecycle(status: string | null | undefined): SourceLifecycle {
  const text = cleanText(status)?.toLowerCase() ?? ''
  if (/\bnrnd\b|not recommended for new designs?/.test(text)) return 'nrnd'
  if (/\bobsolete\b|\beol\b|end of life|discontinued/.test(text)) return 'obsolete'
  if (/^new\b|pre-?release|preview|preliminary/.test(text)) return 'preview'
  if (/^(?:production|active)\b/.test(text)) return 'active'
  return 'unknown'
}

/** The `rohs` spec: "Compliant" (or "RoHS3 Compliant", "Compliant by Exemption") is compliant, "Non-Compliant" is not; anything else says nothing. */
export function nexarRohs(value: string | null | undefined): boolean | null {
  return rohsCompliant(value)
}
