import { createSourceHttp, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { splitTmeUnit, tmeEncode, tmeLifecycle, tmeSignature, tmeSignatureBase, tmeSortedParams, tmeSource, tmeStatusKind, type TmeConfig } from '../src/tme'
import { testFailureMatrix } from './fakes/failures'
import type { Fake } from './fakes/serve'
import { TME_FAKE_PRODUCTS, TME_FAKE_SECRET, TME_FAKE_TOKEN, startTmeFake, tmeRefusal } from './fakes/tme'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_SECRET = 'not-the-app-secret-0'
const WRONG_TOKEN = 'ffffffffffeeeeeeeeeeddddddddddccccccccccbbbbbbbbbb'

let fake: Fake
beforeAll(async () => {
  fake = await startTmeFake()
})
afterAll(async () => {
  await fake.close()
})

const config = () => ({ token: TME_FAKE_TOKEN, appSecret: TME_FAKE_SECRET, baseUrl: fake.url })

/** A context over the fake; `secrets: false` gives an HTTP client that is not told the credentials, so only the source keeps them out of messages. */
function context(options: { token?: string; appSecret?: string; currency?: string; secrets?: boolean } = {}): SourceContext<TmeConfig> {
  const raw = { ...config(), ...(options.token ? { token: options.token } : {}), ...(options.appSecret ? { appSecret: options.appSecret } : {}), ...(options.currency ? { currency: options.currency } : {}) }
  return {
    config: tmeSource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: options.secrets === false ? [] : [raw.token, raw.appSecret], timeoutMs: 2_000 }),
    signal: new AbortController().signal,
    memo: new Map(),
    now: () => NOW,
  }
}

/** The actions the source asked since `before`, in order. */
const asked = (before: number) => fake.seen.slice(before).map((r) => r.path)

testSource(tmeSource, {
  config,
  invalidConfig: { token: '', appSecret: TME_FAKE_SECRET, country: 'Poland' },
  badCredentials: () => ({ token: TME_FAKE_TOKEN, appSecret: WRONG_SECRET, baseUrl: fake.url }),
  query: 'LM358',
  emptyQuery: 'NO-SUCH-PART-ZZ9',
  ref: 'LM358D',
  unknownRef: 'NOSUCH-TME-1',
})

testFailureMatrix(tmeSource, { fake: () => fake, config, ref: 'LM358D', query: 'LM358' })

describe('tme config', () => {
  it("defaults to TME's host, Poland, English and euros, and refuses what it does not know", () => {
    expect(tmeSource.configSchema.parse({ token: 't-123', appSecret: 's-456' })).toEqual({
      token: 't-123',
      appSecret: 's-456',
      baseUrl: 'https://api.tme.eu',
      country: 'PL',
      language: 'EN',
      currency: 'EUR',
    })
    expect(tmeSource.configSchema.safeParse({ token: 't-123', appSecret: 's-456', apiKey: 'x' }).success).toBe(false)
    expect(tmeSource.configSchema.safeParse({ token: 't 123', appSecret: 's-456' }).success).toBe(false)
    expect(tmeSource.configSchema.safeParse({ token: 't-123' }).success).toBe(false)
    expect(tmeSource.configSchema.safeParse({ token: 't-123', appSecret: 's-456', currency: 'euro' }).success).toBe(false)
    expect(tmeSource.configSchema.safeParse({ token: 't-123', appSecret: 's-456', country: 'pl' }).success).toBe(false)
  })

  it('keeps the token and the app secret secret, and declares two requests a second', () => {
    expect(tmeSource.secretFields).toEqual(['token', 'appSecret'])
    expect(tmeSource.capabilities).toEqual({ search: true, offers: true, lifecycle: true })
    expect(tmeSource.limits).toEqual({ requestsPerMinute: 120, requestsPerDay: null })
  })
})

describe('tme signature', () => {
  // A token of 50 characters and a secret of 20, as TME issues them.
  const TOKEN = '0b1d5c3e7f9a2468ace13579bdf02468ace13579bdf0246813'
  const SECRET = 'f00dfacecafe12345678'

  it("builds the base string of the manual's worked example (Products/GetStocks, SymbolList[0]=1N4007)", () => {
    const base = tmeSignatureBase('https://api.tme.eu/Products/GetStocks.json', { Token: TOKEN, SymbolList: ['1N4007', '1N4002'], Language: 'EN' })
    // The manual's example starts so: the URL encoded once, the parameters twice (`[` is %5B, then %255B).
    expect(base.startsWith('POST&https%3A%2F%2Fapi.tme.eu%2FProducts%2FGetStocks.json&Language%3DEN%26SymbolList%255B0%255D%3D1N4007')).toBe(true)
    expect(base).toBe(`POST&https%3A%2F%2Fapi.tme.eu%2FProducts%2FGetStocks.json&Language%3DEN%26SymbolList%255B0%255D%3D1N4007%26SymbolList%255B1%255D%3D1N4002%26Token%3D${TOKEN}`)
  })

  it('signs it with HMAC-SHA1 of the app secret, base64 — the value openssl and Python compute for the same base', () => {
    // `printf %s "$BASE" | openssl dgst -sha1 -hmac "$SECRET" -binary | base64`, and hmac.new(…, hashlib.sha1) in Python, both give:
    expect(tmeSignature('https://api.tme.eu/Products/GetStocks.json', { Language: 'EN', SymbolList: ['1N4007', '1N4002'], Token: TOKEN }, SECRET)).toBe('FbqjuVzDH9rlW54ZIdjU744S3MY=')
  })

  it('encodes values as rawurlencode does: space %20, ! \' ( ) * encoded, ~ kept', () => {
    const params = { Token: TOKEN, SearchPlain: "LM358 op-amp (dual)*!'~", SearchPage: '1', Language: 'EN', Country: 'PL' }
    expect(tmeSignatureBase('https://api.tme.eu/Products/Search.json', params)).toBe(
      `POST&https%3A%2F%2Fapi.tme.eu%2FProducts%2FSearch.json&Country%3DPL%26Language%3DEN%26SearchPage%3D1%26SearchPlain%3DLM358%2520op-amp%2520%2528dual%2529%252A%2521%2527~%26Token%3D${TOKEN}`,
    )
    expect(tmeSignature('https://api.tme.eu/Products/Search.json', params, SECRET)).toBe('ISMHS5X2Zc1KRYMMJj92jYFd5Mk=')
    expect(tmeEncode('5.1kΩ ±1%')).toBe('5.1k%CE%A9%20%C2%B11%25')
  })

  it('sorts by name and keeps a list in its order, past ten items too (ksort sorts the indexes as numbers)', () => {
    const list = Array.from({ length: 12 }, (_, i) => `S${i}`)
    const sorted = tmeSortedParams({ Token: 't', SymbolList: list, Country: 'PL', Currency: 'EUR', Language: 'EN' })
    expect(sorted.map(([k]) => k)).toEqual(['Country', 'Currency', 'Language', ...list.map((_, i) => `SymbolList[${i}]`), 'Token'])
  })
})

describe('tme requests', () => {
  it('POSTs the documented form to /Products/Search.json, sorted, signed, the signature last', async () => {
    const before = fake.seen.length
    const found = await tmeSource.search('  LM358 ', context(), 3)
    expect(found).toHaveLength(3)
    expect(asked(before)).toEqual(['/Products/Search.json'])
    const sent = fake.seen.at(-1)!
    expect(sent.method).toBe('POST')
    expect(sent.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    const form = [...new URLSearchParams(sent.body)]
    expect(form.map(([k]) => k)).toEqual(['Country', 'Language', 'SearchPage', 'SearchPlain', 'Token', 'ApiSignature'])
    expect(Object.fromEntries(form)).toMatchObject({ Country: 'PL', Language: 'EN', SearchPage: '1', SearchPlain: 'LM358', Token: TME_FAKE_TOKEN })
    // The signature is the documented one for exactly what was sent, to the URL it was sent to.
    const url = `${fake.url}/Products/Search.json`
    expect(Object.fromEntries(form).ApiSignature).toBe(tmeSignature(url, { Country: 'PL', Language: 'EN', SearchPage: '1', SearchPlain: 'LM358', Token: TME_FAKE_TOKEN }, TME_FAKE_SECRET))
  })

  it("signs phrases with spaces, brackets, `*!'~` and non-ASCII so that the fake's own check accepts them", async () => {
    for (const phrase of ["LM358 op-amp (dual)*!'~", '5.1kΩ ±1%', 'a+b&c=d']) {
      await expect(tmeSource.search(phrase, context(), 5)).resolves.toEqual([])
    }
  })

  it('asks GetProducts, then GetPricesAndStocks, GetParameters and GetProductsFiles for a fetch, each with SymbolList[0]', async () => {
    const before = fake.seen.length
    await tmeSource.fetch('LM358D', context())
    expect(asked(before).sort()).toEqual(['/Products/GetParameters.json', '/Products/GetPricesAndStocks.json', '/Products/GetProducts.json', '/Products/GetProductsFiles.json'])
    expect(asked(before)[0]).toBe('/Products/GetProducts.json')
    const prices = fake.seen.slice(before).find((r) => r.path === '/Products/GetPricesAndStocks.json')!
    expect([...new URLSearchParams(prices.body)].map(([k]) => k)).toEqual(['Country', 'Currency', 'Language', 'SymbolList[0]', 'Token', 'ApiSignature'])
    expect(new URLSearchParams(prices.body).get('SymbolList[0]')).toBe('LM358D')
  })

  it('asks nothing for an empty query or ref, or a limit that is no number', async () => {
    const before = fake.seen.length
    expect(await tmeSource.search('   ', context(), 10)).toEqual([])
    expect(await tmeSource.search('LM358', context(), Number.NaN)).toEqual([])
    expect(await tmeSource.fetch('  ', context())).toBeNull()
    expect(fake.seen).toHaveLength(before)
  })
})

describe('tme search', () => {
  it('answers LM358s in TME\'s order, mapped onto candidates', async () => {
    const found = await tmeSource.search('LM358', context(), 10)
    expect(found.map((c) => c.ref)).toEqual(['LM358D', 'LM358N-ST', 'LM358DT', 'LM358P', 'LM358-1%-TME'])
    expect(found[0]).toEqual({
      ref: 'LM358D',
      manufacturer: 'TEXAS INSTRUMENTS',
      mpn: 'LM358DR',
      description: 'IC: operational amplifier; 700kHz; Ch: 2; SO8; 3÷32VDC; reel,tape',
      imageUrl: 'https://ce8dc832c.cloudimg.io/v7/_cdn_/1A/2B/3C/00/0/123456_1.jpg?width=640&height=480',
      productUrl: 'https://www.tme.eu/en/details/lm358d/smd-operational-amplifiers/texas-instruments/lm358dr/',
      lifecycle: 'active',
      stock: null,
    })
    expect(found.map((c) => c.lifecycle)).toEqual(['active', 'nrnd', 'active', 'obsolete', 'active'])
    expect(found[2]!.imageUrl).toBeNull()
  })

  it('pages through SearchPage, 20 products a page, up to the limit', async () => {
    const many = Array.from({ length: 45 }, (_, i) => ({ ...TME_FAKE_PRODUCTS[0]!, product: { ...TME_FAKE_PRODUCTS[0]!.product, Symbol: `LM358D-${String(i).padStart(2, '0')}` } }))
    const big = await startTmeFake(many)
    try {
      const ctx = { ...context(), config: tmeSource.configSchema.parse({ ...config(), baseUrl: big.url }) }
      const all = await tmeSource.search('LM358', ctx, 50)
      expect(all).toHaveLength(45)
      expect(big.seen.map((r) => new URLSearchParams(r.body).get('SearchPage'))).toEqual(['1', '2', '3'])
      const few = await tmeSource.search('LM358', ctx, 25)
      expect(few).toHaveLength(25)
      expect(big.seen).toHaveLength(5)
    } finally {
      await big.close()
    }
  })
})

describe('tme fetch', () => {
  it('maps GetProducts, GetPricesAndStocks, GetParameters and GetProductsFiles onto the contract', async () => {
    const part = await tmeSource.fetch('LM358D', context())
    const productUrl = 'https://www.tme.eu/en/details/lm358d/smd-operational-amplifiers/texas-instruments/lm358dr/'
    expect(part).toEqual({
      ref: 'LM358D',
      manufacturer: 'TEXAS INSTRUMENTS',
      mpn: 'LM358DR',
      name: null,
      description: 'IC: operational amplifier; 700kHz; Ch: 2; SO8; 3÷32VDC; reel,tape',
      categoryHints: ['SMD operational amplifiers'],
      parameters: [
        { name: 'Manufacturer', value: 'TEXAS INSTRUMENTS', unit: null },
        { name: 'Type of integrated circuit', value: 'operational amplifier', unit: null },
        { name: 'Number of channels', value: '2', unit: null },
        { name: 'Bandwidth', value: '700k', unit: 'Hz' },
        { name: 'Supply voltage', value: '3...32V DC', unit: null },
        { name: 'Case', value: 'SO8', unit: null },
        { name: 'Mounting', value: 'SMD', unit: null },
        { name: 'Operating temperature', value: '-40...85°C', unit: null },
        { name: 'Kind of package', value: 'reel, tape', unit: null },
      ],
      datasheetUrl: 'https://www.tme.eu/Document/0c2b1d7e5f3a4b6c8d9e0f1a2b3c4d5e/lm358.pdf',
      imageUrl: 'https://ce8dc832c.cloudimg.io/v7/_cdn_/1A/2B/3C/00/0/123456_1.jpg?width=640&height=480',
      productUrl,
      lifecycle: 'active',
      supplierStatus: null,
      package: 'SO8',
      rohs: null,
      offers: [
        {
          supplier: 'TME',
          sku: 'LM358D',
          url: productUrl,
          stock: 12345,
          minimumQuantity: 5,
          multiple: 5,
          packaging: null,
          currency: 'EUR',
          priceBreaks: [
            { quantity: 5, price: 0.2431 },
            { quantity: 25, price: 0.1586 },
            { quantity: 100, price: 0.1198 },
            { quantity: 500, price: 0.0987 },
          ],
          fetchedAt: NOW.toISOString(),
        },
      ],
    })
  })

  it('takes the currency from the answer, in the currency asked', async () => {
    const part = await tmeSource.fetch('LM358D', context({ currency: 'PLN' }))
    expect(part!.offers[0]).toMatchObject({ currency: 'PLN', priceBreaks: [{ quantity: 5, price: 1.0332 }, { quantity: 25, price: 0.674 }, { quantity: 100, price: 0.5092 }, { quantity: 500, price: 0.4195 }] })
  })

  it('keeps ProductStatusList in supplierStatus: AVAILABLE_WHILE_STOCKS_LAST is nrnd, the rest of a listed product active', async () => {
    expect(await tmeSource.fetch('LM358N-ST', context())).toMatchObject({ lifecycle: 'nrnd', supplierStatus: 'AVAILABLE_WHILE_STOCKS_LAST', package: 'DIP8', manufacturer: 'STMicroelectronics', mpn: 'LM358N' })
    const hardly = await tmeSource.fetch('LM358DT', context())
    expect(hardly).toMatchObject({ lifecycle: 'active', supplierStatus: 'HARDLY_AVAILABLE, PROMOTED', imageUrl: null, datasheetUrl: null })
    expect(hardly!.offers[0]).toMatchObject({ stock: 0, minimumQuantity: 2500, multiple: 2500, priceBreaks: [{ quantity: 2500, price: 0.0811 }] })
  })

  it('a product no longer in the offer is obsolete, with no offer, and its prices are not asked', async () => {
    const before = fake.seen.length
    const part = await tmeSource.fetch('LM358P', context())
    expect(part).toMatchObject({ lifecycle: 'obsolete', supplierStatus: 'NOT_IN_OFFER', offers: [] })
    expect(asked(before)).not.toContain('/Products/GetPricesAndStocks.json')
  })

  it('falls back to the symbol for an empty OriginalSymbol, and encodes a bare % of the product page', async () => {
    const part = await tmeSource.fetch('lm358-1%-tme', context())
    expect(part).toMatchObject({ ref: 'LM358-1%-TME', mpn: 'LM358-1%-TME', manufacturer: 'TME', supplierStatus: 'NEW', lifecycle: 'active' })
    expect(part!.productUrl).toBe('https://www.tme.eu/en/details/lm358-1%25-tme/smd-operational-amplifiers/tme/')
    expect(part!.offers[0]).toMatchObject({ sku: 'LM358-1%-TME', stock: 40, currency: 'EUR' })
  })

  it('answers null when TME leaves the symbol out, or refuses it as no symbol at all', async () => {
    expect(await tmeSource.fetch('LM358DR', context())).toBeNull()
    expect(await tmeSource.fetch('no<such>symbol', context())).toBeNull()
  })
})

describe('tme statuses', () => {
  const answer = (status: number, body: unknown, headers?: Record<string, string>) => fake.fail({ kind: 'status', status, body: JSON.stringify(body), ...(headers ? { headers } : {}) }, 1)

  it('refused credentials are `auth`: a wrong app secret, a wrong token, for search and fetch', async () => {
    for (const ctx of [context({ appSecret: WRONG_SECRET }), context({ token: WRONG_TOKEN })]) {
      expect((await failure(tmeSource.search('LM358', ctx, 5))).kind).toBe('auth')
      expect((await failure(tmeSource.fetch('LM358D', ctx))).kind).toBe('auth')
    }
    expect((await failure(tmeSource.fetch('LM358D', context({ appSecret: WRONG_SECRET })))).message).toContain('E_INVALID_SIGNATURE')
  })

  it('an auth Status is `auth` whichever HTTP status comes with it', async () => {
    for (const [status, body] of [
      [400, tmeRefusal('E_INVALID_SIGNATURE', 21, 'Signature value is invalid.')],
      [200, tmeRefusal('E_INVALID_SIGNATURE', 21, 'Signature value is invalid.')],
      [403, tmeRefusal('E_ACTION_FORBIDDEN', 4, 'Access denied. You are not allowed to execute this action.')],
      [401, tmeRefusal('E_AUTHORIZATION_FAILED', 2, 'Authorization failed.')],
    ] as const) {
      answer(status, body)
      expect((await failure(tmeSource.fetch('LM358D', context()))).kind).toBe('auth')
    }
  })

  it('too many requests is `quota`, with TME\'s Retry-After', async () => {
    answer(429, tmeRefusal('E_TOO_MANY_REQUESTS', 9, 'Too many requests.'), { 'retry-after': '3' })
    const error = await failure(tmeSource.search('LM358', context(), 5))
    expect(error.kind).toBe('quota')
    expect(error.retryAfter).toBe(3)
  })

  it('a parameter refusal is `refused`, quoting TME; an unknown error Status goes by the HTTP status', async () => {
    answer(406, tmeRefusal('E_INPUT_PARAMS_VALIDATION_ERROR', 7, 'Input parameters validation error.', { Validation: { Country: { value: [], message: 'bad' } } }))
    const refused = await failure(tmeSource.search('LM358', context(), 5))
    expect(refused.kind).toBe('refused')
    expect(refused.message).toContain('E_INPUT_PARAMS_VALIDATION_ERROR')
    answer(200, tmeRefusal('E_SOMETHING_NEW', 99, 'New.'))
    expect((await failure(tmeSource.search('LM358', context(), 5))).kind).toBe('refused')
    answer(503, tmeRefusal('E_SOMETHING_NEW', 99, 'New.'), { 'retry-after': '30' })
    const down = await failure(tmeSource.search('LM358', context(), 5))
    expect(down.kind).toBe('unavailable')
    expect(down.retryAfter).toBe(30)
    answer(200, tmeRefusal('E_SERVICE_UNAVAILABLE', 98, 'Maintenance.'))
    expect((await failure(tmeSource.fetch('LM358D', context()))).kind).toBe('unavailable')
  })

  it('an answer of another shape is `bad-answer`', async () => {
    for (const body of [{}, [], { Status: 'OK' }, { Status: 'OK', Data: { ProductList: 'none' } }, { Status: 'OK', Data: { ProductList: [{ Symbol: 7 }] } }, { Data: { ProductList: [] } }]) {
      answer(200, body)
      expect((await failure(tmeSource.search('LM358', context(), 5))).kind).toBe('bad-answer')
    }
    // The first of the fetch's requests (GetProducts) takes the fault: a product of other field types.
    answer(200, { Status: 'OK', Data: { ProductList: [{ Symbol: 'LM358D', ProductStatusList: 'NEW', MinAmount: '5' }] } })
    expect((await failure(tmeSource.fetch('LM358D', context()))).kind).toBe('bad-answer')
  })

  it('a plain 404 (no such action at this base URL) is `refused`', async () => {
    fake.fail({ kind: 'status', status: 404, body: 'Not Found' }, 1)
    expect((await failure(tmeSource.fetch('LM358D', context()))).kind).toBe('refused')
  })

  it.each([
    ['E_INVALID_SIGNATURE', 'auth'],
    ['E_AUTHORIZATION_FAILED', 'auth'],
    ['E_ACTION_FORBIDDEN', 'auth'],
    ['E_TOO_MANY_REQUESTS', 'quota'],
    ['E_INPUT_PARAMS_VALIDATION_ERROR', 'other'],
    ['E_SERVICE_UNAVAILABLE', 'unavailable'],
  ] as const)('Status %s is %s', (status, kind) => {
    expect(tmeStatusKind(status)).toBe(kind)
  })
})

describe('the token and the app secret', () => {
  it('never appear in an error message, even when TME repeats them and the HTTP client is not told them', async () => {
    const ctx = context({ secrets: false })
    const echo = `token ${TME_FAKE_TOKEN} secret ${TME_FAKE_SECRET}`
    const answers = [
      { status: 403, body: tmeRefusal('E_INVALID_SIGNATURE', 21, echo) },
      { status: 406, body: tmeRefusal('E_INPUT_PARAMS_VALIDATION_ERROR', 7, echo) },
      { status: 429, body: tmeRefusal('E_TOO_MANY_REQUESTS', 9, echo) },
      { status: 500, body: tmeRefusal('E_INTERNAL', 1, echo) },
      { status: 200, body: tmeRefusal(`E_${TME_FAKE_TOKEN}`, 1, echo) },
    ]
    for (const { status, body } of answers) {
      for (const call of [() => tmeSource.search('LM358', ctx, 5), () => tmeSource.fetch('LM358D', ctx)]) {
        fake.fail({ kind: 'status', status, body: JSON.stringify(body) }, 1)
        const message = (await failure(call())).message
        expect(message).not.toContain(TME_FAKE_TOKEN)
        expect(message).not.toContain(TME_FAKE_SECRET)
      }
    }
    for (const fault of [{ kind: 'malformed' } as const, { kind: 'hang' } as const, { kind: 'status', status: 502, body: echo } as const]) {
      fake.fail(fault, 1)
      const quick = { ...ctx, http: createSourceHttp({ timeoutMs: 300 }) }
      const message = (await failure(tmeSource.fetch('LM358D', quick))).message
      expect(message).not.toContain(TME_FAKE_TOKEN)
      expect(message).not.toContain(TME_FAKE_SECRET)
    }
    fake.heal()
  })

  it('are in no error for wrong credentials either', async () => {
    for (const ctx of [context({ appSecret: WRONG_SECRET, secrets: false }), context({ token: WRONG_TOKEN, secrets: false })]) {
      const message = (await failure(tmeSource.fetch('LM358D', ctx))).message
      for (const secret of [TME_FAKE_TOKEN, TME_FAKE_SECRET, WRONG_SECRET, WRONG_TOKEN]) expect(message).not.toContain(secret)
    }
  })
})

describe('reading TME', () => {
  it.each([
    [[], 'active'],
    [['NEW'], 'active'],
    [['HIT', 'PROMOTED', 'SPECIAL_PRICE'], 'active'],
    [['CANNOT_BE_ORDERED'], 'active'],
    [['HARDLY_AVAILABLE'], 'active'],
    [['AVAILABLE_WHILE_STOCKS_LAST'], 'nrnd'],
    [['AVAILABLE_WHILE_STOCKS_LAST', 'DANGEROUS'], 'nrnd'],
    [['NOT_IN_OFFER'], 'obsolete'],
    [['AVAILABLE_WHILE_STOCKS_LAST', 'NOT_IN_OFFER'], 'obsolete'],
    [['INVALID'], 'obsolete'],
  ] as const)('lifecycle of %j is %s', (statuses, lifecycle) => {
    expect(tmeLifecycle(statuses)).toBe(lifecycle)
  })

  it.each([
    ['50V', { value: '50', unit: 'V' }],
    ['5.1kΩ', { value: '5.1k', unit: 'Ω' }],
    ['700kHz', { value: '700k', unit: 'Hz' }],
    ['100nF', { value: '100n', unit: 'F' }],
    ['6.8µH', { value: '6.8u', unit: 'H' }],
    ['2.9A', { value: '2.9', unit: 'A' }],
    ['3...32V DC', null],
    ['-40...85°C', null],
    ['±1%', null],
    ['SO8', null],
    ['2', null],
  ] as const)('unit of %j is %j', (text, split) => {
    expect(splitTmeUnit(text)).toEqual(split)
  })
})
