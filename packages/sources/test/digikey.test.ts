import { createSourceHttp, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { digikeyLifecycle, digikeyRohs, digikeySource } from '../src/digikey'
import { DIGIKEY_FAKE_CLIENT_ID, DIGIKEY_FAKE_SECRET, gatewayError, startDigikeyFake, type DigikeyFake } from './fakes/digikey'
import { testFailureMatrix } from './fakes/failures'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_SECRET = 'wrong-digikey-secret-0000-1111'
const TOKEN_PATH = '/v1/oauth2/token'

let fake: DigikeyFake
beforeAll(async () => {
  fake = await startDigikeyFake()
})
afterAll(async () => {
  await fake.close()
})

const config = () => ({ clientId: DIGIKEY_FAKE_CLIENT_ID, clientSecret: DIGIKEY_FAKE_SECRET, baseUrl: fake.url, tokenUrl: `${fake.url}${TOKEN_PATH}` })
type Config = ReturnType<typeof digikeySource.configSchema.parse>

/**
 * A context over the fake. `secrets: false` gives an HTTP client that is not
 * told the credentials, so only the source keeps them out of messages;
 * `memo` and `now` let tests share a token and move the clock.
 */
function context(options: { config?: Record<string, unknown>; secrets?: boolean; memo?: Map<string, unknown>; now?: () => Date; timeoutMs?: number } = {}): SourceContext<Config> {
  const raw = { ...config(), ...options.config }
  return {
    config: digikeySource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: options.secrets === false ? [] : [raw.clientId, raw.clientSecret].map(String), timeoutMs: options.timeoutMs ?? 2_000 }),
    signal: new AbortController().signal,
    memo: options.memo ?? new Map(),
    now: options.now ?? (() => NOW),
  }
}

/** Requests the fake saw from `from` on, split into token and API requests. */
function seenSince(from: number) {
  const seen = fake.seen.slice(from)
  return { token: seen.filter((r) => r.path === TOKEN_PATH), api: seen.filter((r) => r.path.startsWith('/products/v4/')) }
}

/** A context whose memo already holds a token, so the next fault hits the API rather than the token endpoint. */
async function withToken(options: Parameters<typeof context>[0] = {}): Promise<SourceContext<Config>> {
  const ctx = context(options)
  await digikeySource.fetch('296-1014-1-ND', ctx)
  return ctx
}

afterEach(() => {
  fake.heal()
  fake.refuseClient(false)
})

testSource(digikeySource, {
  config,
  invalidConfig: { clientId: '', clientSecret: 'x', baseUrl: 'ftp://api.digikey.com' },
  badCredentials: () => ({ ...config(), clientSecret: WRONG_SECRET }),
  query: 'LM358',
  emptyQuery: 'NO-SUCH-PART-ZZ9',
  ref: '296-1014-1-ND',
  unknownRef: '296-NOSUCHPART-ND',
})

// Every fault of the matrix hits the token endpoint first (a fresh context has no token) and maps the same; no case is skipped.
testFailureMatrix(digikeySource, { fake: () => fake, config, ref: '296-1014-1-ND', query: 'LM358' })

describe('digikey config', () => {
  it("defaults to DigiKey's documented hosts and the US locale, and refuses what it does not know", () => {
    expect(digikeySource.configSchema.parse({ clientId: 'id-123', clientSecret: 'secret-456' })).toEqual({
      clientId: 'id-123',
      clientSecret: 'secret-456',
      baseUrl: 'https://api.digikey.com',
      tokenUrl: 'https://api.digikey.com/v1/oauth2/token',
      localeSite: 'US',
      localeLanguage: 'en',
      localeCurrency: 'USD',
    })
    for (const bad of [{}, { clientId: 'id-123' }, { clientId: 'id-123', clientSecret: 's', apiKey: 'k' }, { clientId: 'id-123', clientSecret: 's', localeCurrency: 'usd' }, { clientId: 'id 123', clientSecret: 's' }]) {
      expect(digikeySource.configSchema.safeParse(bad).success).toBe(false)
    }
  })

  it('declares the Product Information limits (120 a minute, 1000 a day) and both credentials as secrets', () => {
    expect(digikeySource.limits).toEqual({ requestsPerMinute: 120, requestsPerDay: 1000 })
    expect(digikeySource.secretFields).toEqual(['clientId', 'clientSecret'])
    expect(digikeySource.capabilities).toEqual({ search: true, offers: true, lifecycle: true })
  })
})

describe('the access token', () => {
  it('is fetched once and reused across calls sharing a memo', async () => {
    const memo = new Map<string, unknown>()
    const from = fake.seen.length
    await digikeySource.search('LM358', context({ memo }), 5)
    await digikeySource.fetch('296-1014-1-ND', context({ memo }))
    await digikeySource.fetch('LM358P', context({ memo }))
    expect(seenSince(from).token).toHaveLength(1)
    expect(seenSince(from).api).toHaveLength(3)
    const tokens = new Set(seenSince(from).api.map((r) => r.headers.authorization))
    expect(tokens.size).toBe(1)
  })

  it('is fetched again for another memo, and once it has expired (30 minutes)', async () => {
    const memo = new Map<string, unknown>()
    let now = NOW
    const from = fake.seen.length
    await digikeySource.fetch('296-1014-1-ND', context({ memo, now: () => now }))
    await digikeySource.fetch('296-1014-1-ND', context())
    now = new Date(NOW.getTime() + 31 * 60_000)
    await digikeySource.fetch('296-1014-1-ND', context({ memo, now: () => now }))
    expect(seenSince(from).token).toHaveLength(3)
  })

  it('is requested as the 2-legged flow documents: client_credentials in a form body', async () => {
    const from = fake.seen.length
    await digikeySource.fetch('296-1014-1-ND', context())
    const [sent] = seenSince(from).token
    expect(sent!.method).toBe('POST')
    expect(sent!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    const form = new URLSearchParams(sent!.body)
    expect(form.get('grant_type')).toBe('client_credentials')
    expect(form.get('client_id')).toBe(DIGIKEY_FAKE_CLIENT_ID)
    expect(form.get('client_secret')).toBe(DIGIKEY_FAKE_SECRET)
  })

  it('is forgotten and fetched once more when the API answers 401 (a revoked token)', async () => {
    const memo = new Map<string, unknown>()
    await digikeySource.fetch('296-1014-1-ND', context({ memo }))
    fake.revokeTokens()
    const from = fake.seen.length
    const part = await digikeySource.fetch('296-1014-1-ND', context({ memo }))
    expect(part?.mpn).toBe('LM358DR')
    const { token, api } = seenSince(from)
    expect(token).toHaveLength(1)
    expect(api).toHaveLength(2)
    expect(api[0]!.headers.authorization).not.toBe(api[1]!.headers.authorization)
    // The new token is kept: the next call asks no token.
    const next = fake.seen.length
    await digikeySource.search('LM358', context({ memo }), 2)
    expect(seenSince(next).token).toHaveLength(0)
  })

  it('a second 401 is an `auth` SourceError quoting the gateway, after exactly one retry', async () => {
    for (const call of [(ctx: SourceContext<Config>) => digikeySource.fetch('296-1014-1-ND', ctx), (ctx: SourceContext<Config>) => digikeySource.search('LM358', ctx, 5)]) {
      const ctx = await withToken()
      // As for an app whose subscription ended: every token is refused.
      fake.refuseClient(true)
      const from = fake.seen.length
      const error = await failure(call(ctx))
      expect(error.kind).toBe('auth')
      expect(error.message).toContain('Invalid Client-Id')
      expect(seenSince(from).api).toHaveLength(2)
      expect(seenSince(from).token).toHaveLength(1)
      fake.refuseClient(false)
    }
  })

  it('a wrong secret is refused at the token endpoint: `auth`, and no API request is made', async () => {
    const from = fake.seen.length
    const error = await failure(digikeySource.search('LM358', context({ config: { clientSecret: WRONG_SECRET } }), 5))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('invalid_client')
    expect(seenSince(from).api).toHaveLength(0)
  })
})

describe('digikey requests', () => {
  it('sends the documented headers and KeywordRequest', async () => {
    const from = fake.seen.length
    const found = await digikeySource.search('  LM358 ', context({ config: { localeSite: 'DE', localeLanguage: 'de', localeCurrency: 'EUR' } }), 3)
    expect(found).toHaveLength(3)
    const [sent] = seenSince(from).api
    expect(sent!.method).toBe('POST')
    expect(sent!.path).toBe('/products/v4/search/keyword')
    expect(sent!.headers.authorization).toMatch(/^Bearer fake-access-token-/)
    expect(sent!.headers['x-digikey-client-id']).toBe(DIGIKEY_FAKE_CLIENT_ID)
    expect(sent!.headers['x-digikey-locale-site']).toBe('DE')
    expect(sent!.headers['x-digikey-locale-language']).toBe('de')
    expect(sent!.headers['x-digikey-locale-currency']).toBe('EUR')
    expect(sent!.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(sent!.body)).toEqual({ Keywords: 'LM358', Limit: 3, Offset: 0 })
  })

  it('fetches with GET …/productdetails, the ref encoded in the path, with the same headers', async () => {
    const from = fake.seen.length
    await digikeySource.fetch('296-1014-1-ND', context())
    const [sent] = seenSince(from).api
    expect(sent!.method).toBe('GET')
    expect(sent!.path).toBe('/products/v4/search/296-1014-1-ND/productdetails')
    expect(sent!.headers['x-digikey-client-id']).toBe(DIGIKEY_FAKE_CLIENT_ID)
    expect(sent!.headers['x-digikey-locale-currency']).toBe('USD')
    expect(await digikeySource.fetch('A/B C', context())).toBeNull()
    expect(fake.seen.at(-1)!.path).toBe('/products/v4/search/A%2FB%20C/productdetails')
  })

  it('asks at most the 50 products a KeywordRequest may, and nothing for an empty query', async () => {
    await digikeySource.search('LM358', context(), 500)
    expect(JSON.parse(fake.seen.at(-1)!.body).Limit).toBe(50)
    const from = fake.seen.length
    expect(await digikeySource.search('   ', context(), 10)).toEqual([])
    expect(await digikeySource.search('LM358', context(), Number.NaN)).toEqual([])
    expect(await digikeySource.fetch('   ', context())).toBeNull()
    expect(fake.seen.length).toBe(from)
  })
})

describe('digikey search', () => {
  it('answers candidates best first, each under its first DigiKey number', async () => {
    const found = await digikeySource.search('LM358', context(), 10)
    expect(found.map((c) => c.ref)).toEqual(['296-1014-1-ND', '296-1395-5-ND', '497-1591-1-ND', 'LM358H-ND', 'LM358AMXTR-ND'])
    expect(found[0]).toEqual({
      ref: '296-1014-1-ND',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      description: 'General Purpose Amplifier 2 Circuit 8-SOIC',
      imageUrl: 'https://mm.digikey.com/Volume0/opasdata/d220001/medias/images/4462/296~8-SOIC~~8.jpg',
      productUrl: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
      lifecycle: 'active',
      stock: 75460,
    })
    // A scheme-relative photo URL is taken as https.
    expect(found[1]!.imageUrl).toBe('https://mm.digikey.com/Volume0/opasdata/d220001/medias/images/2433/296~4040082-3~P~8.JPG')
  })

  it('puts the exact match first and does not repeat it', async () => {
    const found = await digikeySource.search('LM358P', context(), 10)
    expect(found.map((c) => c.mpn)).toEqual(['LM358P'])
    const byNumber = await digikeySource.search('497-1591-1-ND', context(), 10)
    expect(byNumber.map((c) => c.ref)).toEqual(['497-1591-1-ND'])
  })
})

describe('digikey fetch', () => {
  it('maps a Product onto the contract, one offer per variation', async () => {
    expect(await digikeySource.fetch('296-1014-1-ND', context())).toEqual({
      ref: '296-1014-1-ND',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      name: null,
      description: 'General Purpose Amplifier 2 Circuit 8-SOIC',
      categoryHints: ['Integrated Circuits (ICs)', 'Linear', 'Instrumentation, Op Amps, Buffer Amps'],
      parameters: [
        { name: 'Amplifier Type', value: 'General Purpose', unit: null },
        { name: 'Number of Circuits', value: '2', unit: null },
        { name: 'Gain Bandwidth Product', value: '700 kHz', unit: null },
        { name: 'Voltage - Supply Span (Max)', value: '32 V', unit: null },
        { name: 'Package / Case', value: '8-SOIC (0.154", 3.90mm Width)', unit: null },
        { name: 'Supplier Device Package', value: '8-SOIC', unit: null },
      ],
      datasheetUrl: 'https://www.ti.com/lit/ds/symlink/lm358.pdf',
      imageUrl: 'https://mm.digikey.com/Volume0/opasdata/d220001/medias/images/4462/296~8-SOIC~~8.jpg',
      productUrl: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
      lifecycle: 'active',
      supplierStatus: 'Active',
      package: '8-SOIC',
      rohs: true,
      offers: [
        {
          supplier: 'DigiKey',
          sku: '296-1014-1-ND',
          url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
          stock: 15230,
          minimumQuantity: 1,
          multiple: null,
          packaging: 'Cut Tape (CT)',
          currency: 'USD',
          priceBreaks: [
            { quantity: 1, price: 0.5 },
            { quantity: 10, price: 0.338 },
            { quantity: 100, price: 0.2109 },
            { quantity: 500, price: 0.16962 },
          ],
          fetchedAt: NOW.toISOString(),
        },
        {
          supplier: 'DigiKey',
          sku: '296-1014-2-ND',
          url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
          stock: 45000,
          minimumQuantity: 2500,
          multiple: 2500,
          packaging: 'Tape & Reel (TR)',
          currency: 'USD',
          priceBreaks: [
            { quantity: 2500, price: 0.12544 },
            { quantity: 5000, price: 0.11638 },
          ],
          fetchedAt: NOW.toISOString(),
        },
        {
          supplier: 'DigiKey',
          sku: '296-1014-6-ND',
          url: 'https://www.digikey.com/en/products/detail/texas-instruments/LM358DR/555950',
          stock: 15230,
          minimumQuantity: 1,
          multiple: null,
          packaging: 'Digi-Reel®',
          currency: 'USD',
          priceBreaks: [
            { quantity: 1, price: 0.5 },
            { quantity: 10, price: 0.338 },
            { quantity: 100, price: 0.2109 },
          ],
          fetchedAt: NOW.toISOString(),
        },
      ],
    })
  })

  it('answers under the DigiKey number asked, or the first one for an MPN', async () => {
    expect((await digikeySource.fetch('296-1014-2-nd', context()))!.ref).toBe('296-1014-2-ND')
    expect((await digikeySource.fetch('LM358DR', context()))!.ref).toBe('296-1014-1-ND')
  })

  it('prices in the currency DigiKey says it used, which may not be the one asked', async () => {
    const euros = await digikeySource.fetch('296-1014-1-ND', context({ config: { localeSite: 'DE', localeCurrency: 'EUR' } }))
    expect(new Set(euros!.offers.map((o) => o.currency))).toEqual(new Set(['EUR']))
    // The fake, like DigiKey for a currency the site does not take, answers in USD.
    const yen = await digikeySource.fetch('296-1014-1-ND', context({ config: { localeCurrency: 'JPY' } }))
    expect(new Set(yen!.offers.map((o) => o.currency))).toEqual(new Set(['USD']))
  })

  it('keeps the status in DigiKey words and maps it: Not For New Designs, Obsolete, Discontinued at Digi-Key', async () => {
    expect(await digikeySource.fetch('497-1591-1-ND', context())).toMatchObject({ lifecycle: 'nrnd', supplierStatus: 'Not For New Designs', manufacturer: 'STMicroelectronics', package: '8-SO' })
    const obsolete = await digikeySource.fetch('LM358H-ND', context())
    expect(obsolete).toMatchObject({ lifecycle: 'obsolete', supplierStatus: 'Obsolete', rohs: false, imageUrl: null })
    expect(obsolete!.offers).toEqual([expect.objectContaining({ sku: 'LM358H-ND', stock: 0, priceBreaks: [], packaging: 'Tube', multiple: null })])
    expect(await digikeySource.fetch('LM358AMX', context())).toMatchObject({ ref: 'LM358AMXTR-ND', lifecycle: 'unknown', supplierStatus: 'Discontinued at Digi-Key', rohs: null })
  })
})

describe('reading DigiKey words', () => {
  it.each([
    ['Active', false, 'active'],
    ['Not For New Designs', false, 'nrnd'],
    ['Not Recommended for New Designs', false, 'nrnd'],
    ['Last Time Buy', true, 'nrnd'],
    ['Obsolete', true, 'obsolete'],
    ['Preliminary', false, 'preview'],
    ['Discontinued at Digi-Key', false, 'unknown'],
    ['Discontinued at Digi-Key', true, 'obsolete'],
    [null, true, 'obsolete'],
    [null, false, 'unknown'],
    ['Something New', false, 'unknown'],
  ] as const)('status %j (end of life %j) is %s', (status, endOfLife, lifecycle) => {
    expect(digikeyLifecycle(status, { endOfLife })).toBe(lifecycle)
  })

  it.each([
    ['ROHS3 Compliant', true],
    ['RoHS Compliant', true],
    ['RoHS Compliant by Exemption', true],
    ['RoHS non-compliant', false],
    ['Not Applicable', null],
    ['Vendor undefined', null],
    [null, null],
  ] as const)('RoHS %j is %j', (status, rohs) => {
    expect(digikeyRohs(status)).toBe(rohs)
  })
})

describe('digikey failures past the token', () => {
  const once = (status: number, body: unknown, headers: Record<string, string> = {}) => fake.fail({ kind: 'status', status, body: typeof body === 'string' ? body : JSON.stringify(body), headers }, 1)

  it('a 429 from the API is `quota` with its Retry-After; a 500 is `unavailable`', async () => {
    const ctx = await withToken()
    once(429, gatewayError(429, 'Too Many Requests', 'burst limit exceeded'), { 'retry-after': '42' })
    const quota = await failure(digikeySource.search('LM358', ctx, 5))
    expect(quota).toMatchObject({ kind: 'quota', retryAfter: 42 })
    once(500, 'oops')
    expect((await failure(digikeySource.fetch('296-1014-1-ND', ctx))).kind).toBe('unavailable')
  })

  it('a 400 problem is `refused`, quoting its title and detail', async () => {
    const ctx = await withToken()
    once(400, { type: 'x', title: 'Bad Request', status: 400, detail: 'Limit must be between 1 and 50', instance: '/products/v4/search/keyword', correlationId: 'c', errors: {} })
    const error = await failure(digikeySource.search('LM358', ctx, 5))
    expect(error.kind).toBe('refused')
    expect(error.message).toContain('Bad Request — Limit must be between 1 and 50')
  })

  it('malformed JSON, an answer past the bounds, or one of another shape is `bad-answer`', async () => {
    const ctx = await withToken({ timeoutMs: 1_000 })
    fake.fail({ kind: 'malformed' }, 1)
    expect((await failure(digikeySource.search('LM358', ctx, 5))).kind).toBe('bad-answer')
    fake.fail({ kind: 'hang' }, 1)
    expect((await failure(digikeySource.fetch('296-1014-1-ND', ctx))).kind).toBe('timeout')
    for (const body of [{}, [], { Products: 'none' }, { Products: [{ ManufacturerProductNumber: 42 }] }, { Products: [{ ManufacturerProductNumber: 'X', ProductVariations: [{ StandardPricing: [{ UnitPrice: '0.5' }] }] }] }]) {
      once(200, body)
      expect((await failure(digikeySource.search('LM358', ctx, 5))).kind).toBe('bad-answer')
    }
    for (const body of [{}, { Product: null }, { Product: { Category: { ChildCategories: 'x' } } }, { Product: { Description: 'IC OPAMP' } }]) {
      once(200, body)
      expect((await failure(digikeySource.fetch('296-1014-1-ND', ctx))).kind).toBe('bad-answer')
    }
  })

  it('a product without a manufacturer product number is left out of a search, and a `bad-answer` for a fetch', async () => {
    const ctx = await withToken()
    once(200, { Products: [{ ManufacturerProductNumber: ' ', ProductVariations: [] }], ProductsCount: 1, ExactMatches: [] })
    expect(await digikeySource.search('LM358', ctx, 5)).toEqual([])
    once(200, { Product: { ManufacturerProductNumber: null } })
    expect((await failure(digikeySource.fetch('296-1014-1-ND', ctx))).kind).toBe('bad-answer')
  })
})

describe('the credentials', () => {
  const echo = `${DIGIKEY_FAKE_CLIENT_ID} ${DIGIKEY_FAKE_SECRET}`

  it('never appear in an error message, even when DigiKey repeats them and the HTTP client is not told them', async () => {
    const ctx = await withToken({ secrets: false })
    const answers = [
      { status: 500, body: `failed for ${echo}` },
      { status: 400, body: JSON.stringify({ title: `bad ${DIGIKEY_FAKE_SECRET}`, detail: `client ${DIGIKEY_FAKE_CLIENT_ID}`, status: 400 }) },
      { status: 429, body: JSON.stringify(gatewayError(429, 'Too Many Requests', echo)) },
      { status: 403, body: JSON.stringify(gatewayError(403, `Forbidden for ${DIGIKEY_FAKE_CLIENT_ID}`, echo)) },
    ]
    for (const { status, body } of answers) {
      fake.fail({ kind: 'status', status, body }, 1)
      const error = await failure(digikeySource.search('LM358', ctx, 5))
      expect(error.message).not.toContain(DIGIKEY_FAKE_CLIENT_ID)
      expect(error.message).not.toContain(DIGIKEY_FAKE_SECRET)
    }
    // A 401 repeating them, then (after the new token) the gateway's own refusal: the message quotes the last.
    fake.fail({ kind: 'status', status: 401, body: JSON.stringify(gatewayError(401, 'Invalid Client-Id', echo)) }, 1)
    fake.refuseClient(true)
    const refused = await failure(digikeySource.fetch('296-1014-1-ND', ctx))
    expect(refused.kind).toBe('auth')
    expect(refused.message).not.toContain(DIGIKEY_FAKE_CLIENT_ID)
  })

  it('never appear when the token endpoint repeats them either', async () => {
    const bodies = [{ error: 'invalid_client', error_description: echo }, { error: `invalid_client ${DIGIKEY_FAKE_SECRET}` }, { message: echo }]
    for (const body of bodies) {
      fake.fail({ kind: 'status', status: 401, body: JSON.stringify(body) }, 1)
      const error = await failure(digikeySource.search('LM358', context({ secrets: false }), 5))
      expect(error.kind).toBe('auth')
      expect(error.message).not.toContain(DIGIKEY_FAKE_CLIENT_ID)
      expect(error.message).not.toContain(DIGIKEY_FAKE_SECRET)
    }
    const wrong = await failure(digikeySource.fetch('296-1014-1-ND', context({ secrets: false, config: { clientSecret: WRONG_SECRET } })))
    expect(wrong.message).not.toContain(WRONG_SECRET)
    expect(wrong.message).not.toContain(DIGIKEY_FAKE_CLIENT_ID)
  })

  it('and the token endpoint 429 keeps its Retry-After', async () => {
    fake.fail({ kind: 'status', status: 429, body: '{}', headers: { 'retry-after': '9' } }, 1)
    expect(await failure(digikeySource.search('LM358', context(), 5))).toMatchObject({ kind: 'quota', retryAfter: 9 })
  })
})
