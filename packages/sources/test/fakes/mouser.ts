import { sendJson, startFake, type Fake, type SeenRequest } from './serve'
import type { ServerResponse } from 'node:http'

/*
 * A fake of Mouser's Search API v1, answering in the shapes of Mouser's
 * Swagger at https://api.mouser.com/api/docs/ui/index:
 * - POST /api/v{version}/search/keyword, body SearchByKeywordRequestRoot
 *   `{ SearchByKeywordRequest: { keyword, records, startingRecord,
 *   searchOptions, searchWithYourSignUpLanguage } }` ("return a maximum of 50
 *   parts");
 * - POST /api/v{version}/search/partnumber, body SearchByPartRequestRoot
 *   `{ SearchByPartRequest: { mouserPartNumber, partSearchOptions } }`, up to
 *   10 part numbers joined by `|`, options None | Exact (or 1 | 2);
 * - both with the key in the `apiKey` query parameter, both answering
 *   SearchResponseRoot `{ Errors: ErrorEntity[], SearchResults: { NumberOfResult,
 *   Parts: MouserPart[] } }`, MouserPart carrying ProductAttribute[] and
 *   Pricebreak[] (`Price` a formatted text, `Currency` a code).
 * Mouser documents no error codes. A wrong or missing key is answered as
 * clients of the API report Mouser answering it — in a 200 body, the
 * ErrorEntity `{ Code: "Invalid", Message: "Invalid unique identifier.",
 * ResourceKey: "InvalidIdentifier", PropertyName: "API Key" }` (or
 * `Required` when the key is missing) with `SearchResults: null`.
 * Limits (https://www.mouser.com/api-search/) are left to the fault
 * injection of serve.ts.
 */

/** The one key this fake accepts. */
export const MOUSER_FAKE_KEY = 'fake-mouser-search-key-7f3a9c21'

const TI_DATASHEET = 'https://www.ti.com/lit/ds/symlink/lm358.pdf'

/** MouserPart records (Swagger model MouserPart), as Mouser fills them: strings for counts, nulls for what it does not say. */
export const MOUSER_FAKE_PARTS: readonly Record<string, unknown>[] = [
  {
    Availability: '12,345 In Stock',
    AvailabilityInStock: '12345',
    DataSheetUrl: TI_DATASHEET,
    Description: 'Operational Amplifiers - Op Amps Dual 30-V 700-kHz op amp',
    FactoryStock: '0',
    ImagePath: 'https://www.mouser.com/images/texasinstruments/images/SOIC_8_t.jpg',
    Category: 'Operational Amplifiers - Op Amps',
    LeadTime: '42 Days',
    LifecycleStatus: null,
    IsDiscontinued: 'false',
    Manufacturer: 'Texas Instruments',
    ManufacturerPartNumber: 'LM358DR',
    Min: '1',
    Mult: '1',
    MouserPartNumber: '595-LM358DR',
    ProductAttributes: [
      { AttributeName: 'Packaging', AttributeValue: 'Reel' },
      { AttributeName: 'Packaging', AttributeValue: 'Cut Tape' },
      { AttributeName: 'Packaging', AttributeValue: 'MouseReel', AttributeCost: '$7.00 MouseReel™ fee will be added and calculated in your shopping cart.' },
      { AttributeName: 'Standard Pack Qty', AttributeValue: '2500' },
      { AttributeName: 'Supply Voltage - Max', AttributeValue: '30 V' },
    ],
    PriceBreaks: [
      { Quantity: 1, Price: '$0.52', Currency: 'USD' },
      { Quantity: 10, Price: '$0.366', Currency: 'USD' },
      { Quantity: 100, Price: '$0.229', Currency: 'USD' },
      { Quantity: 2500, Price: '$0.153', Currency: 'USD' },
    ],
    AlternatePackagings: null,
    ProductDetailUrl: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358DR?qs=QbsRYf82W3HGaSXzGzLNCA%3D%3D',
    Reeling: true,
    ROHSStatus: 'RoHS Compliant',
    SuggestedReplacement: '',
    MultiSimBlue: 0,
    ProductCompliance: [{ ComplianceName: 'USHTS', ComplianceValue: '8542330001' }],
  },
  {
    Availability: '8,000 In Stock',
    AvailabilityInStock: '8000',
    DataSheetUrl: TI_DATASHEET,
    Description: 'Operational Amplifiers - Op Amps Dual 36-V 1.2-MHz op amp',
    ImagePath: 'https://www.mouser.com/images/texasinstruments/images/SOIC_8_t.jpg',
    Category: 'Operational Amplifiers - Op Amps',
    LifecycleStatus: 'New Product',
    IsDiscontinued: 'false',
    Manufacturer: 'Texas Instruments',
    ManufacturerPartNumber: 'LM358BIDR',
    Min: '1',
    Mult: '1',
    MouserPartNumber: '595-LM358BIDR',
    ProductAttributes: [{ AttributeName: 'Packaging', AttributeValue: 'Reel' }],
    PriceBreaks: [
      { Quantity: 1, Price: '$0.48', Currency: 'USD' },
      { Quantity: 100, Price: '$0.201', Currency: 'USD' },
    ],
    ProductDetailUrl: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358BIDR?qs=example',
    ROHSStatus: 'RoHS Compliant',
  },
  {
    // No AvailabilityInStock: the stock is read from the Availability text.
    Availability: '3,210 In Stock',
    AvailabilityInStock: null,
    DataSheetUrl: TI_DATASHEET,
    Description: 'Operational Amplifiers - Op Amps DUAL OP AMP',
    ImagePath: '',
    Category: 'Operational Amplifiers - Op Amps',
    LifecycleStatus: 'Not Recommended for New Designs',
    IsDiscontinued: 'false',
    Manufacturer: 'Texas Instruments',
    ManufacturerPartNumber: 'LM358MX/NOPB',
    Min: '2500',
    Mult: '2500',
    MouserPartNumber: '926-LM358MX/NOPB',
    ProductAttributes: [{ AttributeName: 'Packaging', AttributeValue: 'Reel' }],
    PriceBreaks: [{ Quantity: 2500, Price: '$0.271', Currency: 'USD' }],
    ProductDetailUrl: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358MX-NOPB?qs=example',
    ROHSStatus: 'RoHS Compliant',
    SuggestedReplacement: '595-LM358BIDR',
  },
  {
    // An account priced in euros: Mouser formats the price for its locale.
    Availability: '23.456 In Stock',
    AvailabilityInStock: '23456',
    DataSheetUrl: 'https://www.st.com/resource/en/datasheet/lm358.pdf',
    Description: 'Operational Amplifiers - Op Amps Low-power dual op amp',
    ImagePath: 'https://www.mouser.com/images/stmicroelectronics/images/SO_8_t.jpg',
    Category: 'Operational Amplifiers - Op Amps',
    LifecycleStatus: null,
    IsDiscontinued: 'false',
    Manufacturer: 'STMicroelectronics',
    ManufacturerPartNumber: 'LM358DT',
    Min: '1',
    Mult: '1',
    MouserPartNumber: '511-LM358DT',
    ProductAttributes: [{ AttributeName: 'Package / Case', AttributeValue: 'SOIC-8' }],
    PriceBreaks: [
      { Quantity: 1, Price: '0,41 €', Currency: 'EUR' },
      { Quantity: 10, Price: '0,283 €', Currency: 'EUR' },
      { Quantity: 2500, Price: '0,122 €', Currency: 'EUR' },
      { Quantity: 25000, Price: '1.234,56 €', Currency: 'EUR' },
    ],
    ProductDetailUrl: 'https://www.mouser.com/ProductDetail/STMicroelectronics/LM358DT?qs=example',
    ROHSStatus: 'RoHS Compliant',
  },
  {
    // A part Mouser lists but does not sell: no Mouser part number, nothing to fetch it by.
    Availability: null,
    Description: 'Operational Amplifiers - Op Amps Dual',
    Category: 'Operational Amplifiers - Op Amps',
    Manufacturer: 'onsemi',
    ManufacturerPartNumber: 'LM358N',
    MouserPartNumber: 'N/A',
    PriceBreaks: [],
    ProductAttributes: [],
    ProductDetailUrl: '',
  },
  {
    Availability: 'None',
    AvailabilityInStock: '0',
    DataSheetUrl: 'https://www.analog.com/media/en/technical-documentation/data-sheets/MAX220-MAX249.pdf',
    Description: 'RS-232 Interface IC +5V Multi-Ch RS-232 Driver/Receiver',
    ImagePath: 'https://www.mouser.com/images/maxim/images/DIP_16_t.jpg',
    Category: 'RS-232 Interface IC',
    LifecycleStatus: 'Obsolete',
    IsDiscontinued: 'true',
    Manufacturer: 'Analog Devices / Maxim Integrated',
    ManufacturerPartNumber: 'MAX232CPE',
    Min: 'N/A',
    Mult: 'N/A',
    MouserPartNumber: '700-MAX232CPE',
    ProductAttributes: [],
    PriceBreaks: [],
    ProductDetailUrl: 'https://www.mouser.com/ProductDetail/Analog-Devices-Maxim-Integrated/MAX232CPE?qs=example',
    ROHSStatus: 'Not Compliant',
    SuggestedReplacement: '700-MAX232ECPE',
  },
]

/** Starts the fake; `parts` replaces its catalogue. */
export async function startMouserFake(parts: readonly Record<string, unknown>[] = MOUSER_FAKE_PARTS): Promise<Fake> {
  return startFake((request, response) => _answer(request, response, parts))
}

function _answer(request: SeenRequest, response: ServerResponse, parts: readonly Record<string, unknown>[]): void {
  const route = /^\/api\/v1(?:\.0)?\/search\/(keyword|partnumber)$/.exec(request.path)
  // Not Mouser's documented shapes (it documents none for these): the framework's `{ Message }` answers.
  if (!route) return sendJson(response, 404, { Message: `No HTTP resource was found that matches the request URI '${request.path}'.` })
  if (request.method !== 'POST') return sendJson(response, 405, { Message: `The requested resource does not support http method '${request.method}'.` })

  const key = request.query.get('apiKey')
  if (!key) return sendJson(response, 200, mouserRefusal('Required', 'Required', 'Required', 'API Key'))
  if (key !== MOUSER_FAKE_KEY) return sendJson(response, 200, mouserRefusal('Invalid', 'Invalid unique identifier.', 'InvalidIdentifier', 'API Key'))

  let body: Record<string, unknown>
  try {
    body = JSON.parse(request.body) as Record<string, unknown>
  } catch {
    return sendJson(response, 400, { Message: 'The request is invalid.' })
  }
  return route[1] === 'keyword' ? _keyword(body, response, parts) : _partNumber(body, response, parts)
}

/** SearchByKeywordRequest: every word of `keyword` somewhere in the part, `records` from `startingRecord`. */
function _keyword(body: Record<string, unknown>, response: ServerResponse, parts: readonly Record<string, unknown>[]): void {
  const req = body.SearchByKeywordRequest as { keyword?: unknown; records?: unknown; startingRecord?: unknown } | undefined
  if (!req || typeof req.keyword !== 'string' || !req.keyword.trim()) return sendJson(response, 200, mouserRefusal('Required', 'Required', 'Required', 'Keyword'))
  const words = req.keyword.toLowerCase().split(/\s+/).filter(Boolean)
  const found = parts.filter((p) => {
    const hay = ['ManufacturerPartNumber', 'MouserPartNumber', 'Description', 'Manufacturer', 'Category'].map((f) => String(p[f] ?? '')).join(' ').toLowerCase()
    return words.every((w) => hay.includes(w))
  })
  const records = typeof req.records === 'number' ? Math.max(0, Math.min(50, req.records)) : 50
  const start = typeof req.startingRecord === 'number' ? Math.max(0, req.startingRecord) : 0
  sendJson(response, 200, _results(found.length, found.slice(start, start + records)))
}

/** SearchByPartRequest: up to 10 numbers joined by `|`, matched on Mouser's or the manufacturer's part number, exactly with Exact (2). */
function _partNumber(body: Record<string, unknown>, response: ServerResponse, parts: readonly Record<string, unknown>[]): void {
  const req = body.SearchByPartRequest as { mouserPartNumber?: unknown; partSearchOptions?: unknown } | undefined
  if (!req || typeof req.mouserPartNumber !== 'string' || !req.mouserPartNumber.trim()) return sendJson(response, 200, mouserRefusal('Required', 'Required', 'Required', 'Mouser Part Number'))
  const numbers = req.mouserPartNumber.split('|').map((n) => n.trim().toLowerCase()).filter(Boolean).slice(0, 10)
  const exact = req.partSearchOptions === 'Exact' || req.partSearchOptions === 2 || req.partSearchOptions === '2'
  const matches = (have: unknown, wanted: string) => {
    const text = String(have ?? '').toLowerCase()
    return exact ? text === wanted : text.includes(wanted)
  }
  const found = parts.filter((p) => numbers.some((n) => matches(p.MouserPartNumber, n) || matches(p.ManufacturerPartNumber, n)))
  sendJson(response, 200, _results(found.length, found.slice(0, 50)))
}

/** SearchResponseRoot with results and no errors. */
function _results(total: number, parts: readonly Record<string, unknown>[]) {
  return { Errors: [], SearchResults: { NumberOfResult: total, Parts: parts } }
}

/** SearchResponseRoot with one ErrorEntity and no results. */
export function mouserRefusal(code: string, message: string | null, resourceKey: string | null, propertyName: string | null) {
  return {
    Errors: [{ Id: 0, Code: code, Message: message, ResourceKey: resourceKey, ResourceFormatString: null, ResourceFormatString2: null, PropertyName: propertyName }],
    SearchResults: null,
  }
}
