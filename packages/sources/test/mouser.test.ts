import { createSourceHttp, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mouserLifecycle, mouserSource, parseMouserPrice, parseMouserQuantity, splitMouserUnit } from '../src/mouser'
import { testFailureMatrix } from './fakes/failures'
import { MOUSER_FAKE_KEY, mouserRefusal, startMouserFake } from './fakes/mouser'
import type { Fake } from './fakes/serve'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_KEY = 'wrong-mouser-key-0000-1111'

let fake: Fake
beforeAll(async () => {
  fake = await startMouserFake()
})
afterAll(async () => {
  await fake.close()
})

const config = () => ({ apiKey: MOUSER_FAKE_KEY, baseUrl: fake.url })

/** A context over the fake; `secrets: false` gives an HTTP client that is not told the key, so only the source keeps it out of messages. */
function context(options: { apiKey?: string; secrets?: boolean } = {}): SourceContext<{ apiKey: string; baseUrl: string }> {
  const raw = { ...config(), ...(options.apiKey ? { apiKey: options.apiKey } : {}) }
  return {
    config: mouserSource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: options.secrets === false ? [] : [raw.apiKey], timeoutMs: 2_000 }),
    signal: new AbortController().signal,
    memo: new Map(),
    now: () => NOW,
  }
}

testSource(mouserSource, {
  config,
  invalidConfig: { apiKey: '', baseUrl: 'ftp://api.mouser.com' },
  badCredentials: () => ({ apiKey: WRONG_KEY, baseUrl: fake.url }),
  query: 'LM358',
  emptyQuery: 'NO-SUCH-PART-ZZ9',
  ref: '595-LM358DR',
  unknownRef: '595-NOSUCHPART',
})

testFailureMatrix(mouserSource, { fake: () => fake, config, ref: '595-LM358DR', query: 'LM358' })

describe('mouser config', () => {
  it("defaults to Mouser's documented host and refuses what it does not know", () => {
    expect(mouserSource.configSchema.parse({ apiKey: 'k-123' })).toEqual({ apiKey: 'k-123', baseUrl: 'https://api.mouser.com' })
    expect(mouserSource.configSchema.safeParse({ apiKey: 'k-123', currency: 'EUR' }).success).toBe(false)
    expect(mouserSource.configSchema.safeParse({ apiKey: 'k 123' }).success).toBe(false)
    expect(mouserSource.configSchema.safeParse({}).success).toBe(false)
  })

  it('declares the limits of the Search API page: 30 calls a minute, 1,000 a day', () => {
    expect(mouserSource.limits).toEqual({ requestsPerMinute: 30, requestsPerDay: 1000 })
    expect(mouserSource.secretFields).toEqual(['apiKey'])
  })
})

describe('mouser requests', () => {
  it('sends the documented SearchByKeywordRequest, the key in the query', async () => {
    const before = fake.seen.length
    const found = await mouserSource.search('  LM358 ', context(), 3)
    expect(found).toHaveLength(3)
    expect(fake.seen).toHaveLength(before + 1)
    const sent = fake.seen.at(-1)!
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe('/api/v1/search/keyword')
    expect(sent.query.get('apiKey')).toBe(MOUSER_FAKE_KEY)
    expect(sent.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(sent.body)).toEqual({ SearchByKeywordRequest: { keyword: 'LM358', records: 3, startingRecord: 0 } })
  })

  it('asks at most the 50 records a call may answer', async () => {
    await mouserSource.search('LM358', context(), 500)
    expect(JSON.parse(fake.seen.at(-1)!.body).SearchByKeywordRequest.records).toBe(50)
  })

  it('sends the documented SearchByPartRequest with Exact matching for a fetch', async () => {
    await mouserSource.fetch('595-LM358DR', context())
    const sent = fake.seen.at(-1)!
    expect(sent.path).toBe('/api/v1/search/partnumber')
    expect(sent.query.get('apiKey')).toBe(MOUSER_FAKE_KEY)
    expect(JSON.parse(sent.body)).toEqual({ SearchByPartRequest: { mouserPartNumber: '595-LM358DR', partSearchOptions: 'Exact' } })
  })

  it('asks nothing for an empty query or a ref that cannot be a Mouser part number', async () => {
    const before = fake.seen.length
    expect(await mouserSource.search('   ', context(), 10)).toEqual([])
    expect(await mouserSource.fetch('595-A|595-B', context())).toBeNull()
    expect(await mouserSource.fetch('ab', context())).toBeNull()
    expect(await mouserSource.search('LM358', context(), Number.NaN)).toEqual([])
    expect(fake.seen).toHaveLength(before)
  })
})

describe('mouser search', () => {
  it('answers LM358 variants best first, leaving out a part with no Mouser part number', async () => {
    const found = await mouserSource.search('LM358', context(), 10)
    expect(found.map((c) => c.ref)).toEqual(['595-LM358DR', '595-LM358BIDR', '926-LM358MX/NOPB', '511-LM358DT'])
    expect(found[0]).toEqual({
      ref: '595-LM358DR',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      description: 'Operational Amplifiers - Op Amps Dual 30-V 700-kHz op amp',
      imageUrl: 'https://www.mouser.com/images/texasinstruments/images/SOIC_8_t.jpg',
      productUrl: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358DR?qs=QbsRYf82W3HGaSXzGzLNCA%3D%3D',
      lifecycle: 'active',
      stock: 12345,
    })
    expect(found.find((c) => c.ref === '926-LM358MX/NOPB')).toMatchObject({ lifecycle: 'nrnd', stock: 3210, imageUrl: null })
  })
})

describe('mouser fetch', () => {
  it('maps a MouserPart onto the contract', async () => {
    const part = await mouserSource.fetch('595-lm358dr', context())
    expect(part).toEqual({
      ref: '595-LM358DR',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      name: null,
      description: 'Operational Amplifiers - Op Amps Dual 30-V 700-kHz op amp',
      categoryHints: ['Operational Amplifiers - Op Amps'],
      parameters: [
        { name: 'Packaging', value: 'Reel, Cut Tape, MouseReel', unit: null },
        { name: 'Standard Pack Qty', value: '2500', unit: null },
        { name: 'Supply Voltage - Max', value: '30', unit: 'V' },
      ],
      datasheetUrl: 'https://www.ti.com/lit/ds/symlink/lm358.pdf',
      imageUrl: 'https://www.mouser.com/images/texasinstruments/images/SOIC_8_t.jpg',
      productUrl: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358DR?qs=QbsRYf82W3HGaSXzGzLNCA%3D%3D',
      lifecycle: 'active',
      supplierStatus: null,
      package: null,
      rohs: true,
      offers: [
        {
          supplier: 'Mouser',
          sku: '595-LM358DR',
          url: 'https://www.mouser.com/ProductDetail/Texas-Instruments/LM358DR?qs=QbsRYf82W3HGaSXzGzLNCA%3D%3D',
          stock: 12345,
          minimumQuantity: 1,
          multiple: 1,
          packaging: 'Reel, Cut Tape, MouseReel',
          currency: 'USD',
          priceBreaks: [
            { quantity: 1, price: 0.52 },
            { quantity: 10, price: 0.366 },
            { quantity: 100, price: 0.229 },
            { quantity: 2500, price: 0.153 },
          ],
          fetchedAt: NOW.toISOString(),
        },
      ],
    })
  })

  it("keeps Mouser's lifecycle text and maps it: New Product, NRND, Obsolete", async () => {
    expect(await mouserSource.fetch('595-LM358BIDR', context())).toMatchObject({ lifecycle: 'active', supplierStatus: 'New Product' })
    const nrnd = await mouserSource.fetch('926-LM358MX/NOPB', context())
    expect(nrnd).toMatchObject({ lifecycle: 'nrnd', supplierStatus: 'Not Recommended for New Designs' })
    expect(nrnd!.offers[0]).toMatchObject({ stock: 3210, minimumQuantity: 2500, multiple: 2500 })
    const obsolete = await mouserSource.fetch('700-MAX232CPE', context())
    expect(obsolete).toMatchObject({ lifecycle: 'obsolete', supplierStatus: 'Obsolete', rohs: false })
    expect(obsolete!.offers[0]).toMatchObject({ stock: 0, minimumQuantity: null, multiple: null, currency: null, priceBreaks: [] })
  })

  it('reads prices in euros with decimal commas and thousands points', async () => {
    const part = await mouserSource.fetch('511-LM358DT', context())
    expect(part!.package).toBe('SOIC-8')
    expect(part!.offers[0]).toMatchObject({
      stock: 23456,
      currency: 'EUR',
      priceBreaks: [
        { quantity: 1, price: 0.41 },
        { quantity: 10, price: 0.283 },
        { quantity: 2500, price: 0.122 },
        { quantity: 25000, price: 1234.56 },
      ],
    })
  })

  it("answers null when Exact matches only the manufacturer's part number", async () => {
    // The fake, like Mouser, matches "LM358DR" to 595-LM358DR; the ref is a Mouser part number, so that is no match.
    expect(await mouserSource.fetch('LM358DR', context())).toBeNull()
  })
})

describe('mouser errors in the answer', () => {
  const answer = (status: number, body: unknown) => fake.fail({ kind: 'status', status, body: JSON.stringify(body) }, 1)

  it('a wrong key, refused in a 200 body, is an `auth` SourceError for search and fetch', async () => {
    const ctx = context({ apiKey: WRONG_KEY })
    for (const call of [mouserSource.search('LM358', ctx, 5), mouserSource.fetch('595-LM358DR', ctx)]) {
      const error = await failure(call)
      expect(error.kind).toBe('auth')
      expect(error.message).toContain('Invalid unique identifier')
    }
  })

  it('the same refusal under a 400 or 403 status is `auth` too', async () => {
    for (const status of [400, 403]) {
      answer(status, mouserRefusal('Invalid', 'Invalid unique identifier.', 'InvalidIdentifier', 'API Key'))
      expect((await failure(mouserSource.fetch('595-LM358DR', context()))).kind).toBe('auth')
    }
  })

  it('TooManyRequests (the daily calls spent) is `quota`', async () => {
    answer(200, mouserRefusal('TooManyRequests', null, null, null))
    expect((await failure(mouserSource.search('LM358', context(), 5))).kind).toBe('quota')
  })

  it('InvalidCharacters is `refused`', async () => {
    answer(200, mouserRefusal('InvalidCharacters', null, null, null))
    expect((await failure(mouserSource.search('LM358 Ω', context(), 5))).kind).toBe('refused')
  })

  it('an answer of another shape is `bad-answer`', async () => {
    for (const body of [{}, [], { Errors: [], SearchResults: { Parts: 'none' } }, { Errors: [], SearchResults: { Parts: [{ PriceBreaks: [{ Quantity: {} }] }] } }, { Message: 'An error has occurred.' }]) {
      answer(200, body)
      expect((await failure(mouserSource.search('LM358', context(), 5))).kind).toBe('bad-answer')
    }
  })

  it('a 404 with the framework message is `refused`, quoting it', async () => {
    answer(404, { Message: 'No HTTP resource was found' })
    const error = await failure(mouserSource.fetch('595-LM358DR', context()))
    expect(error.kind).toBe('refused')
    expect(error.message).toContain('No HTTP resource was found')
  })
})

describe('the API key', () => {
  it('never appears in an error message, even when Mouser repeats it and the HTTP client is not told it', async () => {
    const ctx = context({ secrets: false })
    const echoes = [
      { status: 200, body: mouserRefusal('Invalid', `Invalid unique identifier ${MOUSER_FAKE_KEY}.`, 'InvalidIdentifier', 'API Key') },
      { status: 200, body: mouserRefusal('InvalidCharacters', `bad query for ${MOUSER_FAKE_KEY}`, null, null) },
      { status: 200, body: mouserRefusal('TooManyRequests', `key ${MOUSER_FAKE_KEY} is over its limit`, null, null) },
      { status: 500, body: { Message: `failed for apiKey=${MOUSER_FAKE_KEY}` } },
      { status: 200, body: { Message: `nothing for apiKey=${MOUSER_FAKE_KEY}` } },
    ]
    for (const { status, body } of echoes) {
      fake.fail({ kind: 'status', status, body: JSON.stringify(body) }, 1)
      const error = await failure(mouserSource.search('LM358', ctx, 5))
      expect(error.message).not.toContain(MOUSER_FAKE_KEY)
    }
    for (const fault of [{ kind: 'malformed' } as const, { kind: 'hang' } as const]) {
      fake.fail(fault, 1)
      const quick = { ...ctx, http: createSourceHttp({ timeoutMs: 300 }) }
      expect((await failure(mouserSource.fetch('595-LM358DR', quick))).message).not.toContain(MOUSER_FAKE_KEY)
    }
    fake.heal()
  })

  it('is not in an error for a wrong key either', async () => {
    const error = await failure(mouserSource.fetch('595-LM358DR', context({ apiKey: WRONG_KEY, secrets: false })))
    expect(error.message).not.toContain(WRONG_KEY)
    expect(error.message).not.toContain(MOUSER_FAKE_KEY)
  })
})

describe('reading Mouser texts', () => {
  it.each([
    ['$0.52', 0.52],
    ['$0.366', 0.366],
    ['0,52 €', 0.52],
    ['0,052 €', 0.052],
    ['$1,234.56', 1234.56],
    ['1.234,56 €', 1234.56],
    ['1 234,56 €', 1234.56],
    ['1\u00a0234,56\u00a0€', 1234.56],
    ["CHF 1'234.50", 1234.5],
    ['¥48', 48],
    ['¥32.8', 32.8],
    ['¥1,234', 1234],
    ['$12,345,678.90', 12345678.9],
    ['£7', 7],
    ['US$0.10', 0.1],
    // Three decimals on a price of a dollar or more: a decimal point, not a thousands mark.
    ['$1.235', 1.235],
    ['1,235 €', 1.235],
  ])('price %j is %d', (text, price) => {
    expect(parseMouserPrice(text)).toBe(price)
  })

  it.each(['N/A', '', '$', 'Quote', '1.2.3,4,5'])('price %j is no price', (text) => {
    expect(parseMouserPrice(text)).toBeNull()
  })

  it.each([
    ['12345', 12345],
    ['12,345 In Stock', 12345],
    ['12.345 Auf Lager', 12345],
    ['12 345 En stock', 12345],
    ['6178 在庫', 6178],
    ['1,234,567 In Stock', 1234567],
    ['0', 0],
    [2500, 2500],
    ['In Stock', null],
    ['None', null],
    [null, null],
    [-1, null],
  ] as const)('quantity %j is %j', (text, count) => {
    expect(parseMouserQuantity(text)).toBe(count)
  })

  it.each([
    [null, false, 'active'],
    ['', false, 'active'],
    [null, true, 'unknown'],
    ['New Product', false, 'active'],
    ['New At Mouser', false, 'active'],
    ['Not Recommended for New Designs', false, 'nrnd'],
    ['NRND', false, 'nrnd'],
    ['NRFND', false, 'nrnd'],
    ['End of Life', false, 'nrnd'],
    ['Last Time Buy', false, 'nrnd'],
    ['Obsolete', true, 'obsolete'],
    ['Discontinued', false, 'obsolete'],
    ['Pre-Production', false, 'preview'],
    ['Preview', false, 'preview'],
    ['Something Else', false, 'unknown'],
  ] as const)('lifecycle %j (discontinued %j) is %s', (status, discontinued, lifecycle) => {
    expect(mouserLifecycle(status, discontinued)).toBe(lifecycle)
  })

  it.each([
    ['30 V', { value: '30', unit: 'V' }],
    ['1.2 MHz', { value: '1.2M', unit: 'Hz' }],
    ['10 kOhms', { value: '10k', unit: 'Ω' }],
    ['100 nF', { value: '100n', unit: 'F' }],
    ['700 uA', { value: '700u', unit: 'A' }],
    ['2500', null],
    ['- 40 C', null],
    ['3 V to 32 V', null],
    ['SOIC-8', null],
  ] as const)('unit of %j is %j', (text, split) => {
    expect(splitMouserUnit(text)).toEqual(split)
  })
})
