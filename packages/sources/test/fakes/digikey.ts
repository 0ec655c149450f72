import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from './serve'

/*
 * A fake of DigiKey's Product Information API v4 and its OAuth2 token
 * endpoint, answering in the shapes DigiKey documents:
 * - POST /v1/oauth2/token — https://developer.digikey.com/tutorials-and-resources/oauth-20-2-legged-flow:
 *   x-www-form-urlencoded `client_id`, `client_secret`, `grant_type=client_credentials`,
 *   answering `{ access_token, expires_in, token_type }`; the access token lives
 *   30 minutes (https://developer.digikey.com/faq/oauth-authentication-and-authorization).
 *   DigiKey does not document its refusal's body; refused credentials are
 *   answered with the OAuth2 error of RFC 6749 §5.2
 *   (https://www.rfc-editor.org/rfc/rfc6749#section-5.2): 401 `{ error: "invalid_client", error_description }`.
 * - POST /products/v4/search/keyword —
 *   https://developer.digikey.com/products/product-information-v4/productsearch/keywordsearch:
 *   KeywordRequest `{ Keywords, Limit (1–50), Offset }` → KeywordResponse
 *   `{ Products, ProductsCount, ExactMatches, FilterOptions, SearchLocaleUsed,
 *   AppliedParametricFiltersDto }`.
 * - GET /products/v4/search/{productNumber}/productdetails —
 *   https://developer.digikey.com/products/product-information-v4/productsearch/productdetails:
 *   a DigiKey or manufacturer product number → ProductDetails `{ SearchLocaleUsed, Product }`;
 *   an unknown one → 404 with DKProblemDetails `{ type, title, status, detail,
 *   instance, correlationId, errors }` (the Swagger's error model, on the same pages).
 * - Product, ProductVariation, PriceBreak, CategoryNode, ParameterValue,
 *   ProductStatusV4, Classifications, IsoSearchLocale: the Swagger file of
 *   those pages ("Download Swagger File").
 * - Headers `Authorization: Bearer …`, `X-DIGIKEY-Client-Id`,
 *   `X-DIGIKEY-Locale-Site/-Language/-Currency`: the same pages. A missing or
 *   refused token or client ID is answered by DigiKey's gateway with 401 and
 *   its error JSON `{ ErrorResponseVersion, StatusCode, ErrorMessage,
 *   ErrorDetails, RequestId, ValidationErrors }`
 *   (https://developer.digikey.com/faq/unexpected-api-response-or-error-code;
 *   the messages as DigiKey users report them, e.g.
 *   https://github.com/peeter123/digikey-api/issues/53 "Invalid Client-Id",
 *   https://github.com/replaysMike/Binner/issues/455 "Bearer token is expired").
 * Rate limits (120 a minute, 1000 a day) are left to the fault injection of serve.ts.
 */

export const DIGIKEY_FAKE_CLIENT_ID = 'fake-digikey-client-id-4b1c7e'
export const DIGIKEY_FAKE_SECRET = 'fake-digikey-client-secret-9e27d0a3'

const TI_DATASHEET = 'https://www.ti.com/lit/ds/symlink/lm358.pdf'
const ST_DATASHEET = 'https://www.st.com/resource/en/datasheet/lm358.pdf'

/** The category tree DigiKey gives an op amp (CategoryNode, broadest first). */
const OP_AMP_CATEGORY = {
  CategoryId: 32,
  ParentId: 0,
  Name: 'Integrated Circuits (ICs)',
  ProductCount: 0,
  NewProductCount: 0,
  ImageUrl: null,
  SeoDescription: null,
  ChildCategories: [
    {
      CategoryId: 2011,
      ParentId: 32,
      Name: 'Linear',
      ProductCount: 0,
      NewProductCount: 0,
      ChildCategories: [
        {
          CategoryId: 687,
          ParentId: 2011,
          Name: 'Instrumentation, Op Amps, Buffer Amps',
          ProductCount: 41234,
          NewProductCount: 120,
          ChildCategories: [],
        },
      ],
    },
  ],
}

const parameter = (id: number, text: string, value: string) => ({ ParameterId: id, ParameterText: text, ParameterType: 'String', ValueId: String(id * 1000 + value.length), ValueText: value })

const breaks = (...pairs: Array<[number, number]>) => pairs.map(([q, p]) => ({ BreakQuantity: q, UnitPrice: p, TotalPrice: Math.round(q * p * 100) / 100 }))

const variation = (number: string, packageId: number, packaging: string, stock: number, minimum: number, standardPackage: number, pricing: ReturnType<typeof breaks>) => ({
  DigiKeyProductNumber: number,
  PackageType: { Id: packageId, Name: packaging },
  StandardPricing: pricing,
  // KeywordSearch: "MyPricing is not returned"; ProductDetails fills it only for a 3-legged customer.
  MyPricing: [],
  MarketPlace: false,
  TariffActive: false,
  Supplier: { Id: 1, Name: 'DigiKey' },
  QuantityAvailableforPackageType: stock,
  MaxQuantityForDistribution: 0,
  MinimumOrderQuantity: minimum,
  StandardPackage: standardPackage,
  DigiReelFee: packaging.startsWith('Digi-Reel') ? 7 : 0,
})

interface _Spec {
  mpn: string
  manufacturer: { Id: number; Name: string }
  short: string
  detailed: string
  status: { Id: number; Status: string }
  discontinued?: boolean
  endOfLife?: boolean
  datasheet: string
  photo: string | null
  url: string
  rohs: string
  variations: ReturnType<typeof variation>[]
  parameters: ReturnType<typeof parameter>[]
  series: string
}

/** A Product record (Swagger model Product) from the few fields that differ between the fake's parts. */
function product(s: _Spec): Record<string, unknown> {
  const quantity = s.variations.reduce((sum, v) => sum + v.QuantityAvailableforPackageType, 0)
  return {
    Description: { ProductDescription: s.short, DetailedDescription: s.detailed },
    Manufacturer: s.manufacturer,
    ManufacturerProductNumber: s.mpn,
    UnitPrice: s.variations[0]?.StandardPricing[0]?.UnitPrice ?? 0,
    ProductUrl: s.url,
    DatasheetUrl: s.datasheet,
    PhotoUrl: s.photo,
    ProductVariations: s.variations,
    QuantityAvailable: quantity,
    ProductStatus: s.status,
    BackOrderNotAllowed: false,
    NormallyStocking: quantity > 0,
    Discontinued: s.discontinued ?? false,
    EndOfLife: s.endOfLife ?? false,
    Ncnr: false,
    PrimaryVideoUrl: null,
    Parameters: s.parameters,
    BaseProductNumber: { Id: 1000, Name: 'LM358' },
    Category: OP_AMP_CATEGORY,
    DateLastBuyChance: null,
    ManufacturerLeadWeeks: '6',
    ManufacturerPublicQuantity: 0,
    Series: { Id: 0, Name: s.series },
    ShippingInfo: null,
    Classifications: { ReachStatus: 'REACH Unaffected', RohsStatus: s.rohs, MoistureSensitivityLevel: '1  (Unlimited)', ExportControlClassNumber: 'EAR99', HtsusCode: '8542.33.0001' },
  }
}

const TI = { Id: 296, Name: 'Texas Instruments' }
const ST = { Id: 497, Name: 'STMicroelectronics' }
const OPAMP_PARAMETERS = (pkg: string, devicePackage: string) => [
  parameter(1989, 'Amplifier Type', 'General Purpose'),
  parameter(2094, 'Number of Circuits', '2'),
  parameter(2060, 'Gain Bandwidth Product', '700 kHz'),
  parameter(2035, 'Voltage - Supply Span (Max)', '32 V'),
  parameter(16, 'Package / Case', pkg),
  parameter(1291, 'Supplier Device Package', devicePackage),
  parameter(2029, 'Current - Output / Channel', '-'),
]

/** The fake's catalogue, in the order a keyword search answers it. */
export const DIGIKEY_FAKE_PRODUCTS: readonly Record<string, unknown>[] = [
  product({
    mpn: 'LM358DR',
    manufacturer: TI,
    short: 'IC OPAMP GP 2 CIRCUIT 8SOIC',
    detailed: 'General Purpose Amplifier 2 Circuit 8-SOIC',
    status: { Id: 0, Status: 'Active' },
    datasheet: TI_DATASHEET,
    photo: 'https://mm.digikey.com/Volume0/opasdata/d220001/medias/images/4462/296~8-SOIC~~8.jpg',
    url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
    rohs: 'ROHS3 Compliant',
    series: '-',
    variations: [
      variation('296-1014-1-ND', 2, 'Cut Tape (CT)', 15230, 1, 0, breaks([1, 0.5], [10, 0.338], [100, 0.2109], [500, 0.16962])),
      variation('296-1014-2-ND', 1, 'Tape & Reel (TR)', 45000, 2500, 2500, breaks([2500, 0.12544], [5000, 0.11638])),
      variation('296-1014-6-ND', 243, 'Digi-Reel®', 15230, 1, 0, breaks([1, 0.5], [10, 0.338], [100, 0.2109])),
    ],
    parameters: OPAMP_PARAMETERS('8-SOIC (0.154", 3.90mm Width)', '8-SOIC'),
  }),
  product({
    mpn: 'LM358P',
    manufacturer: TI,
    short: 'IC OPAMP GP 2 CIRCUIT 8DIP',
    detailed: 'General Purpose Amplifier 2 Circuit 8-PDIP',
    status: { Id: 0, Status: 'Active' },
    datasheet: TI_DATASHEET,
    photo: '//mm.digikey.com/Volume0/opasdata/d220001/medias/images/2433/296~4040082-3~P~8.JPG',
    url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358P/277042',
    rohs: 'ROHS3 Compliant',
    series: '-',
    variations: [variation('296-1395-5-ND', 3, 'Tube', 8800, 1, 50, breaks([1, 0.59], [10, 0.428], [50, 0.3304]))],
    parameters: OPAMP_PARAMETERS('8-DIP (0.300", 7.62mm)', '8-PDIP'),
  }),
  product({
    mpn: 'LM358DT',
    manufacturer: ST,
    short: 'IC OPAMP GP 2 CIRCUIT 8SO',
    detailed: 'General Purpose Amplifier 2 Circuit 8-SO',
    status: { Id: 7, Status: 'Not For New Designs' },
    datasheet: ST_DATASHEET,
    photo: 'https://mm.digikey.com/Volume0/opasdata/d220001/medias/images/1071/MFG_8-SO.jpg',
    url: 'https://www.digikey.com/en/products/detail/stmicroelectronics/LM358DT/591577',
    rohs: 'ROHS3 Compliant',
    series: '-',
    variations: [variation('497-1591-1-ND', 2, 'Cut Tape (CT)', 3210, 1, 0, breaks([1, 0.46], [10, 0.31]))],
    parameters: OPAMP_PARAMETERS('8-SOIC (0.154", 3.90mm Width)', '8-SO'),
  }),
  product({
    mpn: 'LM358H',
    manufacturer: TI,
    short: 'IC OPAMP GP 2 CIRCUIT TO99-8',
    detailed: 'General Purpose Amplifier 2 Circuit TO-99-8',
    status: { Id: 1, Status: 'Obsolete' },
    discontinued: true,
    endOfLife: true,
    datasheet: TI_DATASHEET,
    photo: null,
    url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358H/3701398',
    rohs: 'RoHS non-compliant',
    series: '-',
    variations: [variation('LM358H-ND', 3, 'Tube', 0, 1, 500, [])],
    parameters: OPAMP_PARAMETERS('TO-99-8 Metal Can', 'TO-99-8'),
  }),
  product({
    mpn: 'LM358AMX',
    manufacturer: { Id: 512, Name: 'onsemi' },
    short: 'IC OPAMP GP 2 CIRCUIT 8SOIC',
    detailed: 'General Purpose Amplifier 2 Circuit 8-SOIC',
    status: { Id: 2, Status: 'Discontinued at Digi-Key' },
    discontinued: true,
    datasheet: 'https://www.onsemi.com/pdf/datasheet/lm358-d.pdf',
    photo: null,
    url: 'https://www.digikey.com/en/products/detail/onsemi/LM358AMX/458840',
    rohs: 'Vendor undefined',
    series: '-',
    variations: [variation('LM358AMXTR-ND', 1, 'Tape & Reel (TR)', 0, 2500, 2500, [])],
    parameters: OPAMP_PARAMETERS('8-SOIC (0.154", 3.90mm Width)', '8-SOIC'),
  }),
]

export interface DigikeyFake extends Fake {
  /** Every token issued so far stops being accepted (as DigiKey does with a revoked one). */
  revokeTokens(): void
  /** The gateway refuses the client ID whatever the token, as for an app not subscribed to Product Information; `false` ends it. */
  refuseClient(refuse: boolean): void
}

/** The fake on a loopback port. */
export async function startDigikeyFake(): Promise<DigikeyFake> {
  const live = new Set<string>()
  let issued = 0
  let refusing = false
  const fake = await startFake((req, res) => {
    if (req.path === '/v1/oauth2/token') return token(req, res)
    if (!req.path.startsWith('/products/v4/')) return problem(res, 404, 'Not Found', `No resource at ${req.path}`, req.path)
    const refusal = gateway(req)
    if (refusal) return sendJson(res, 401, gatewayError(401, refusal.message, refusal.details))
    if (req.method === 'POST' && req.path === '/products/v4/search/keyword') return keyword(req, res)
    const details = /^\/products\/v4\/search\/([^/]+)\/productdetails$/.exec(req.path)
    if (req.method === 'GET' && details) return productDetails(req, res, decodeURIComponent(details[1]!))
    return problem(res, 404, 'Not Found', `No resource at ${req.path}`, req.path)
  })

  /** The 2-legged token request: the client's credentials in the form body. */
  function token(req: SeenRequest, res: ServerResponse): void {
    const form = new URLSearchParams(req.body)
    if (req.method !== 'POST' || !String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return sendJson(res, 400, { error: 'invalid_request', error_description: 'POST x-www-form-urlencoded data' })
    }
    if (form.get('grant_type') !== 'client_credentials') return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' })
    if (form.get('client_id') !== DIGIKEY_FAKE_CLIENT_ID || form.get('client_secret') !== DIGIKEY_FAKE_SECRET) {
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' })
    }
    const accessToken = `fake-access-token-${++issued}-${randomUUID()}`
    live.add(accessToken)
    sendJson(res, 200, { access_token: accessToken, expires_in: 1799, token_type: 'Bearer' }, { 'cache-control': 'no-store' })
  }

  /** What the gateway refuses before the API sees the request, if anything. */
  function gateway(req: SeenRequest): { message: string; details: string } | null {
    if (req.headers['x-digikey-client-id'] !== DIGIKEY_FAKE_CLIENT_ID || refusing) return { message: 'Invalid Client-Id', details: 'X-DIGIKEY-Client-Id invalid for requested resource' }
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))
    if (!bearer || !live.has(bearer[1]!)) {
      return { message: 'Bearer token is expired', details: 'Bearer token is expired. Please use your refresh token to obtain a new Bearer token, or acquire a new set of tokens from the OAuth endpoint.' }
    }
    return null
  }

  return Object.assign(fake, {
    revokeTokens() {
      live.clear()
    },
    refuseClient(refuse: boolean) {
      refusing = refuse
    },
  })
}

/** KeywordSearch: a part number, manufacturer part number or description containing the keywords, in catalogue order. */
function keyword(req: SeenRequest, res: ServerResponse): void {
  let body: { Keywords?: unknown; Limit?: unknown; Offset?: unknown }
  try {
    body = JSON.parse(req.body) as typeof body
  } catch {
    return problem(res, 400, 'Bad Request', 'The request body is not valid JSON', req.path)
  }
  const limit = body.Limit ?? 5
  const offset = body.Offset ?? 0
  if (typeof body.Keywords !== 'string' || body.Keywords.length > 250) return problem(res, 400, 'Bad Request', 'Keywords must be a string of up to 250 characters', req.path, { Keywords: ['invalid'] })
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 50) return problem(res, 400, 'Bad Request', 'Limit must be between 1 and 50', req.path, { Limit: ['out of range'] })
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) return problem(res, 400, 'Bad Request', 'Offset must not be negative', req.path, { Offset: ['out of range'] })
  const words = body.Keywords.trim().toUpperCase()
  const matches = DIGIKEY_FAKE_PRODUCTS.filter((p) => words !== '' && searchText(p).includes(words))
  const exact = DIGIKEY_FAKE_PRODUCTS.filter((p) => numbersOf(p).includes(words))
  sendJson(res, 200, {
    Products: matches.slice(offset, offset + limit),
    ProductsCount: matches.length,
    ExactMatches: exact,
    FilterOptions: { Manufacturers: [], Packaging: [], Status: [], Series: [], ParametricFilters: [], TopCategories: [], MarketPlaceFilters: ['NoFilter', 'ExcludeMarketPlace', 'MarketPlaceOnly'] },
    SearchLocaleUsed: locale(req),
    AppliedParametricFiltersDto: [],
  })
}

/** ProductDetails: one product by a DigiKey number of any of its variations, or by its manufacturer product number. */
function productDetails(req: SeenRequest, res: ServerResponse, number: string): void {
  const wanted = number.toUpperCase()
  const found = DIGIKEY_FAKE_PRODUCTS.find((p) => numbersOf(p).includes(wanted))
  if (!found) return problem(res, 404, 'Not Found', `Product ${number} not found`, req.path)
  sendJson(res, 200, { SearchLocaleUsed: locale(req), Product: found })
}

/**
 * IsoSearchLocale: what was used, which "may be different than the value you
 * entered if that value was not one of our allowed values" — the fake allows
 * USD and EUR, and answers anything else in USD.
 */
function locale(req: SeenRequest): Record<string, string> {
  const header = (name: string, fallback: string) => String(req.headers[name] ?? fallback)
  const currency = header('x-digikey-locale-currency', 'USD').toUpperCase()
  return { Site: header('x-digikey-locale-site', 'US'), Language: header('x-digikey-locale-language', 'en'), Currency: currency === 'EUR' ? 'EUR' : 'USD' }
}

function numbersOf(p: Record<string, unknown>): string[] {
  const variations = p.ProductVariations as Array<{ DigiKeyProductNumber: string }>
  return [String(p.ManufacturerProductNumber), ...variations.map((v) => v.DigiKeyProductNumber)].map((n) => n.toUpperCase())
}

function searchText(p: Record<string, unknown>): string {
  const description = p.Description as { ProductDescription: string; DetailedDescription: string }
  return [...numbersOf(p), description.ProductDescription, description.DetailedDescription].join('\n').toUpperCase()
}

/** DKProblemDetails, the error model of the v4 Swagger. */
export function problem(res: ServerResponse, status: number, title: string, detail: string, instance: string, errors: Record<string, string[]> = {}): void {
  sendJson(res, status, { type: `https://httpstatuses.io/${status}`, title, status, detail, instance, correlationId: randomUUID(), errors })
}

/** The gateway's error JSON (the FAQ's "JSON response message"). */
export function gatewayError(status: number, message: string, details: string): Record<string, unknown> {
  return { ErrorResponseVersion: '3.0.0.0', StatusCode: status, ErrorMessage: message, ErrorDetails: details, RequestId: randomUUID(), ValidationErrors: [] }
}
