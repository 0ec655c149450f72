import { createHmac } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { sendJson, startFake, type Fake, type SeenRequest } from './serve'

/*
 * A fake of TME's signed API (v1), answering in the shapes of TME's "TME API
 * User Manual" (https://developers.tme.eu/documentation/download; transcript
 * of an edition at https://manualzilla.com/doc/5656662/signature-in-tme-api)
 * and of TME's own snippets (https://github.com/tme-dev/TME-API):
 * - every action is POST /<Group>/<Action>.json with form-encoded parameters,
 *   `Token` and `ApiSignature` among them (manual, "API communication");
 * - the signature is checked the way the manual's "Signature in TME API" and
 *   TME's PHP/api_call.php and PHP/guzzle/src/Hmac/RequestSigner.php compute
 *   it, written here independently of src/tme.ts: the parameters but
 *   ApiSignature, sorted by name (ksort; a list's items by index), each name
 *   and value rawurlencode'd (RFC 3986), joined `name=value&…`; the base
 *   "POST&" + rawurlencode(url) + "&" + rawurlencode(that); ApiSignature =
 *   base64(HMAC-SHA1(app secret, base));
 * - answers are `{ Status: "OK", Data: {…} }`; an error is `{ Status: "E_…",
 *   Data: [], ErrorCode, ErrorMessage, Error }`. A wrong signature is
 *   `E_INVALID_SIGNATURE`, ErrorCode 21, "Signature value is invalid." — the
 *   body TME answers, as users of the API have recorded it; the manual does
 *   not fix the HTTP status (recorded with 403, and with 400), so this fake
 *   answers 403 and the tests try the others. An unknown token is
 *   `E_AUTHORIZATION_FAILED` (TME's status for a token the signed API does
 *   not accept) with HTTP 401, the status the TME client of Binner
 *   (https://github.com/replaysMike/Binner,
 *   Binner/Library/Binner.Common/Integrations/TmeApi.cs) treats as TME's
 *   "unauthorized". Parameter errors are `E_INPUT_PARAMS_VALIDATION_ERROR`
 *   with `Error.Validation.<param>.message` (the shape of the models of
 *   https://pypi.org/project/tme-eu/), here with HTTP 406, as one v1 client
 *   checks for it.
 * Data shapes, per action (manual chapters of the same names):
 * - Products/Search: `{ ProductList, Amount, PageNumber }`, 20 products a
 *   page chosen by `SearchPage`, matched on `SearchPlain`;
 * - Products/GetProducts: `{ ProductList, Language }`, a product `{ Symbol,
 *   OriginalSymbol, Producer, Description, CategoryId, Category, Photo,
 *   Thumbnail, Weight, WeightUnit, SuppliedAmount, MinAmount, Multiples,
 *   Unit, ProductInformationPage, Guarantee, ProductStatusList }`; an unknown
 *   symbol is left out of ProductList (Status stays OK);
 * - Products/GetPricesAndStocks: `{ Currency, Language, PriceType,
 *   ProductList: [{ Symbol, PriceList: [{ Amount, PriceValue, PriceBase,
 *   Special }], Unit, VatRate, VatType, Amount }] }`, prices in the `Currency`
 *   asked; a NOT_IN_OFFER product has none (TME's product-status glossary,
 *   https://api-doc.tme.eu/v2: "stock, prices and delivery time are not
 *   meaningful");
 * - Products/GetParameters: `{ ProductList: [{ Symbol, ParameterList: [{
 *   ParameterId, ParameterName, ParameterValueId, ParameterValue }] }],
 *   Language }`, a parameter of several values listed once per value;
 * - Products/GetProductsFiles: `{ ProductList: [{ Symbol, Files: {
 *   AdditionalPhotoList, DocumentList: [{ DocumentUrl, DocumentType }] } }] }`,
 *   DTE being "Documentation";
 * photos, product pages and documents are protocol-relative (`//…`).
 * Limits (2 requests a second for prices and stocks) are left to the fault
 * injection of serve.ts.
 */

/** The one application this fake knows: a 50-character private token and its 20-character secret. */
export const TME_FAKE_TOKEN = 'a3f9c1e7b5d2084f6e1c9a7b3d5f2e8c0a4b6d8e1f3a5c7e9b'
export const TME_FAKE_SECRET = 'c0ffee5ecret9tme4711'

const PAGE_SIZE = 20
/** EUR prices; PLN at a fixed rate, the two currencies this fake's country allows. */
const PLN_PER_EUR = 4.25

interface FakeProduct {
  product: Record<string, unknown>
  /** EUR price breaks: [Amount, PriceValue]. */
  prices: [number, number][]
  stock: number
  parameters: [number, string, string][]
  documents: [string, string][]
}

const TI_DOC = '//www.tme.eu/Document/0c2b1d7e5f3a4b6c8d9e0f1a2b3c4d5e/lm358.pdf'
const ST_DOC = '//www.tme.eu/Document/5e4d3c2b1a0f9e8d7c6b5a4938271605/LM358-ST.pdf'

function _product(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    CustomerSymbol: '',
    OfferId: null,
    Thumbnail: null,
    Weight: 0.08,
    WeightUnit: 'g',
    SuppliedAmount: 0,
    MinAmount: 1,
    Multiples: 1,
    Unit: 'pcs',
    Guarantee: null,
    ProductStatusList: [],
    ...fields,
  }
}

const OPAMP_PARAMETERS: [number, string, string][] = [
  [2, 'Manufacturer', 'TEXAS INSTRUMENTS'],
  [1, 'Type of integrated circuit', 'operational amplifier'],
  [113, 'Number of channels', '2'],
  [212, 'Bandwidth', '700kHz'],
  [120, 'Supply voltage', '3...32V DC'],
  [35, 'Case', 'SO8'],
  [5, 'Mounting', 'SMD'],
  [32, 'Operating temperature', '-40...85°C'],
  [10, 'Kind of package', 'reel'],
  [10, 'Kind of package', 'tape'],
]

/** A handful of LM358s in TME's words, and one part that is not. */
export const TME_FAKE_PRODUCTS: readonly FakeProduct[] = [
  {
    product: _product({
      Symbol: 'LM358D',
      OriginalSymbol: 'LM358DR',
      Producer: 'TEXAS INSTRUMENTS',
      Description: 'IC: operational amplifier; 700kHz; Ch: 2; SO8; 3÷32VDC; reel,tape',
      CategoryId: 100450,
      Category: 'SMD operational amplifiers',
      Photo: '//ce8dc832c.cloudimg.io/v7/_cdn_/1A/2B/3C/00/0/123456_1.jpg?width=640&height=480',
      Thumbnail: '//ce8dc832c.cloudimg.io/v7/_cdn_/1A/2B/3C/00/0/123456_1.jpg?width=100&height=75',
      ProductInformationPage: '//www.tme.eu/en/details/lm358d/smd-operational-amplifiers/texas-instruments/lm358dr/',
      MinAmount: 5,
      Multiples: 5,
    }),
    prices: [
      [5, 0.2431],
      [25, 0.1586],
      [100, 0.1198],
      [500, 0.0987],
    ],
    stock: 12345,
    parameters: OPAMP_PARAMETERS,
    documents: [
      ['//www.tme.eu/Document/aa11bb22cc33dd44ee55ff6677889900/GWA-warranty.pdf', 'GWA'],
      [TI_DOC, 'DTE'],
    ],
  },
  {
    // A product TME sells off: "available while stocks last".
    product: _product({
      Symbol: 'LM358N-ST',
      OriginalSymbol: 'LM358N',
      Producer: 'STMicroelectronics',
      Description: 'IC: operational amplifier; 1.1MHz; Ch: 2; DIP8; ±1.5÷16VDC,3÷32VDC',
      CategoryId: 100451,
      Category: 'THT operational amplifiers',
      Photo: '//ce8dc832c.cloudimg.io/v7/_cdn_/4D/5E/6F/00/0/234567_1.jpg',
      ProductInformationPage: '//www.tme.eu/en/details/lm358n-st/tht-operational-amplifiers/stmicroelectronics/lm358n/',
      ProductStatusList: ['AVAILABLE_WHILE_STOCKS_LAST'],
    }),
    prices: [
      [1, 0.39],
      [10, 0.287],
    ],
    stock: 740,
    parameters: [
      [2, 'Manufacturer', 'STMicroelectronics'],
      [35, 'Case', 'DIP8'],
      [5, 'Mounting', 'THT'],
    ],
    documents: [[ST_DOC, 'DTE']],
  },
  {
    product: _product({
      Symbol: 'LM358DT',
      OriginalSymbol: 'LM358DT',
      Producer: 'STMicroelectronics',
      Description: 'IC: operational amplifier; 1.1MHz; Ch: 2; SO8; ±1.5÷16VDC,3÷32VDC',
      CategoryId: 100450,
      Category: 'SMD operational amplifiers',
      Photo: null,
      ProductInformationPage: '//www.tme.eu/en/details/lm358dt/smd-operational-amplifiers/stmicroelectronics/',
      ProductStatusList: ['HARDLY_AVAILABLE', 'PROMOTED'],
      MinAmount: 2500,
      Multiples: 2500,
    }),
    prices: [[2500, 0.0811]],
    stock: 0,
    parameters: [[35, 'Case', 'SO8']],
    documents: [],
  },
  {
    // Withdrawn from TME's offer: no prices, no stock.
    product: _product({
      Symbol: 'LM358P',
      OriginalSymbol: 'LM358P',
      Producer: 'TEXAS INSTRUMENTS',
      Description: 'IC: operational amplifier; 700kHz; Ch: 2; DIP8; 3÷32VDC; tube',
      CategoryId: 100451,
      Category: 'THT operational amplifiers',
      Photo: '//ce8dc832c.cloudimg.io/v7/_cdn_/7A/8B/9C/00/0/345678_1.jpg',
      ProductInformationPage: '//www.tme.eu/en/details/lm358p/tht-operational-amplifiers/texas-instruments/',
      ProductStatusList: ['NOT_IN_OFFER'],
    }),
    prices: [],
    stock: 0,
    parameters: [[35, 'Case', 'DIP8']],
    documents: [[TI_DOC, 'DTE']],
  },
  {
    // TME's own brand leaves OriginalSymbol empty; a `%` sits bare in the product page's path.
    product: _product({
      Symbol: 'LM358-1%-TME',
      OriginalSymbol: '',
      Producer: 'TME',
      Description: 'IC: operational amplifier; Ch: 2; SO8; selected 1%',
      CategoryId: 100450,
      Category: 'SMD operational amplifiers',
      Photo: '//ce8dc832c.cloudimg.io/v7/_cdn_/0A/0B/0C/00/0/456789_1.jpg',
      ProductInformationPage: '//www.tme.eu/en/details/lm358-1%-tme/smd-operational-amplifiers/tme/',
      ProductStatusList: ['NEW'],
    }),
    prices: [[10, 0.55]],
    stock: 40,
    parameters: [],
    documents: [],
  },
  {
    product: _product({
      Symbol: 'NE555D',
      OriginalSymbol: 'NE555DR',
      Producer: 'TEXAS INSTRUMENTS',
      Description: 'IC: peripheral circuit; astable,monostable,RC timer; SO8',
      CategoryId: 100460,
      Category: 'Timers - integrated circuits',
      Photo: null,
      ProductInformationPage: '//www.tme.eu/en/details/ne555d/timers-integrated-circuits/texas-instruments/ne555dr/',
    }),
    prices: [[1, 0.31]],
    stock: 900,
    parameters: [],
    documents: [],
  },
]

/** Starts the fake; `products` replaces its catalogue. */
export async function startTmeFake(products: readonly FakeProduct[] = TME_FAKE_PRODUCTS): Promise<Fake> {
  return startFake((request, response) => _answer(request, response, products))
}

/** TME's error envelope. */
export function tmeRefusal(status: string, errorCode: number, message: string, error: unknown = []) {
  return { Status: status, Data: [], ErrorCode: errorCode, ErrorMessage: message, Error: error }
}

const ACTIONS: Record<string, (form: _Form, products: readonly FakeProduct[]) => unknown> = {
  'Products/Search': _search,
  'Products/GetProducts': _getProducts,
  'Products/GetPricesAndStocks': _getPricesAndStocks,
  'Products/GetParameters': _getParameters,
  'Products/GetProductsFiles': _getProductsFiles,
}

function _answer(request: SeenRequest, response: ServerResponse, products: readonly FakeProduct[]): void {
  const route = /^\/(\w+\/\w+)\.json$/.exec(request.path)
  const action = route ? ACTIONS[route[1]!] : undefined
  // The manual documents no answer for an action that does not exist: a bare 404.
  if (!route || !action) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
  if (request.method !== 'POST') return sendJson(response, 405, tmeRefusal('E_INPUT_PARAMS_VALIDATION_ERROR', 1, 'Only POST requests are accepted.'))

  const pairs = [...new URLSearchParams(request.body)]
  const token = pairs.find(([k]) => k === 'Token')?.[1]
  const signature = pairs.find(([k]) => k === 'ApiSignature')?.[1]
  if (!token || token !== TME_FAKE_TOKEN) return sendJson(response, 401, tmeRefusal('E_AUTHORIZATION_FAILED', 2, 'Authorization failed.'))
  const url = `http://${String(request.headers.host)}${request.path}`
  const signed = pairs.filter(([k]) => k !== 'ApiSignature')
  if (!signature || signature !== _signature(url, signed, TME_FAKE_SECRET)) return sendJson(response, 403, tmeRefusal('E_INVALID_SIGNATURE', 21, 'Signature value is invalid.'))

  const form = _form(signed)
  const missing = ['Country', 'Language'].filter((k) => !form.one(k))
  if (missing.length) return sendJson(response, 406, _validation(Object.fromEntries(missing.map((k) => [k, 'This value should not be blank.']))))
  const answer = action(form, products)
  if (_isRefusal(answer)) return sendJson(response, 406, answer)
  sendJson(response, 200, { Status: 'OK', Data: answer })
}

// ---------------------------------------------------------------------------
// The documented signature, computed here on its own

/** PHP's rawurlencode: every UTF-8 byte but A-Z a-z 0-9 - _ . ~ as %XX. */
function _rawurlencode(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte)
    out += /^[A-Za-z0-9\-_.~]$/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** ksort of the parameters as PHP parsed them: by top-level name, a list's items by their index. */
function _ksorted(pairs: [string, string][]): [string, string][] {
  const key = (name: string) => {
    const m = /^([^[]+)(?:\[(\d+)\])?$/.exec(name)
    return { top: m?.[1] ?? name, index: m?.[2] === undefined ? -1 : Number(m[2]) }
  }
  return [...pairs].sort(([a], [b]) => {
    const ka = key(a)
    const kb = key(b)
    if (ka.top !== kb.top) return Buffer.compare(Buffer.from(ka.top), Buffer.from(kb.top))
    return ka.index - kb.index
  })
}

function _signature(url: string, pairs: [string, string][], secret: string): string {
  const query = _ksorted(pairs)
    .map(([k, v]) => `${_rawurlencode(k)}=${_rawurlencode(v)}`)
    .join('&')
  const base = ['POST', _rawurlencode(url), _rawurlencode(query)].join('&')
  return createHmac('sha1', secret).update(base).digest('base64')
}

// ---------------------------------------------------------------------------
// Actions

interface _Form {
  one(name: string): string | undefined
  list(name: string): string[]
}

function _form(pairs: [string, string][]): _Form {
  return {
    one: (name) => pairs.find(([k]) => k === name)?.[1],
    list: (name) =>
      pairs
        .map(([k, v]) => [/^(\w+)\[(\d+)\]$/.exec(k), v] as const)
        .filter(([m]) => m?.[1] === name)
        .sort(([a], [b]) => Number(a![2]) - Number(b![2]))
        .map(([, v]) => v),
  }
}

function _validation(fields: Record<string, string>) {
  const validation = Object.fromEntries(Object.entries(fields).map(([k, message]) => [k, { value: [], message }]))
  return tmeRefusal('E_INPUT_PARAMS_VALIDATION_ERROR', 7, 'Input parameters validation error.', { Validation: validation })
}

function _isRefusal(answer: unknown): answer is ReturnType<typeof tmeRefusal> {
  return typeof answer === 'object' && answer !== null && typeof (answer as { Status?: unknown }).Status === 'string'
}

/** SymbolList, 1 to 50 symbols, each a plausible symbol (the manual's limit; TME refuses the whole request otherwise). */
function _symbols(form: _Form): string[] | ReturnType<typeof _validation> {
  const symbols = form.list('SymbolList')
  if (symbols.length === 0 || symbols.length > 50) return _validation({ SymbolList: 'Between 1 and 50 symbols are allowed.' })
  if (symbols.some((s) => !/^[\w\-+./%#,() ]{1,40}$/.test(s))) return _validation({ SymbolList: 'Some characters are not permitted in symbols.' })
  return symbols
}

/** The products asked for, in the order asked, unknown ones left out. */
function _pick(symbols: string[], products: readonly FakeProduct[]): FakeProduct[] {
  return symbols.flatMap((s) => products.filter((p) => String(p.product.Symbol).toUpperCase() === s.toUpperCase()))
}

function _search(form: _Form, products: readonly FakeProduct[]): unknown {
  const plain = form.one('SearchPlain') ?? ''
  const page = Number(form.one('SearchPage') ?? '1')
  if (!Number.isInteger(page) || page < 1) return _validation({ SearchPage: 'This value should be a positive integer.' })
  const words = plain.toLowerCase().split(/\s+/).filter(Boolean)
  const found = products.filter((p) => {
    const hay = ['Symbol', 'OriginalSymbol', 'Description', 'Producer', 'Category'].map((f) => String(p.product[f] ?? '')).join(' ').toLowerCase()
    return words.length > 0 && words.every((w) => hay.includes(w))
  })
  return { ProductList: found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((p) => p.product), Amount: found.length, PageNumber: page }
}

function _getProducts(form: _Form, products: readonly FakeProduct[]): unknown {
  const symbols = _symbols(form)
  if (!Array.isArray(symbols)) return symbols
  return { ProductList: _pick(symbols, products).map((p) => p.product), Language: form.one('Language') }
}

function _getPricesAndStocks(form: _Form, products: readonly FakeProduct[]): unknown {
  const symbols = _symbols(form)
  if (!Array.isArray(symbols)) return symbols
  const currency = form.one('Currency') ?? 'EUR'
  if (currency !== 'EUR' && currency !== 'PLN') return _validation({ Currency: 'The currency is not available in this country.' })
  const rate = currency === 'PLN' ? PLN_PER_EUR : 1
  const offered = _pick(symbols, products).filter((p) => !(p.product.ProductStatusList as string[]).includes('NOT_IN_OFFER'))
  return {
    Currency: currency,
    Language: form.one('Language'),
    PriceType: 'NET',
    ProductList: offered.map((p) => ({
      Symbol: p.product.Symbol,
      PriceList: p.prices.map(([Amount, price]) => ({ Amount, PriceValue: Math.round(price * rate * 10_000) / 10_000, PriceBase: 1, Special: false })),
      Unit: 'pcs',
      VatRate: 23,
      VatType: 'VAT',
      Amount: p.stock,
    })),
  }
}

function _getParameters(form: _Form, products: readonly FakeProduct[]): unknown {
  const symbols = _symbols(form)
  if (!Array.isArray(symbols)) return symbols
  return {
    ProductList: _pick(symbols, products).map((p) => ({
      Symbol: p.product.Symbol,
      ParameterList: p.parameters.map(([ParameterId, ParameterName, ParameterValue], i) => ({ ParameterId, ParameterName, ParameterValueId: 1_000_000 + i, ParameterValue })),
    })),
    Language: form.one('Language'),
  }
}

function _getProductsFiles(form: _Form, products: readonly FakeProduct[]): unknown {
  const symbols = _symbols(form)
  if (!Array.isArray(symbols)) return symbols
  return {
    ProductList: _pick(symbols, products).map((p) => ({
      Symbol: p.product.Symbol,
      Files: { AdditionalPhotoList: [], DocumentList: p.documents.map(([DocumentUrl, DocumentType]) => ({ DocumentUrl, DocumentType })) },
    })),
  }
}
