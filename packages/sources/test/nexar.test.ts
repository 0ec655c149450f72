import { createSourceHttp, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nexarLifecycle, nexarRohs, nexarSource } from '../src/nexar'
import { testFailureMatrix } from './fakes/failures'
import { NEXAR_FAKE_CLIENT_ID, NEXAR_FAKE_SECRET, NEXAR_GRAPHQL_PATH, NEXAR_TOKEN_PATH, startNexarFake, type NexarFake } from './fakes/nexar'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_SECRET = 'wrong-nexar-secret-0000-1111'
const LM358DR = '39619421'

let fake: NexarFake
beforeAll(async () => {
  fake = await startNexarFake()
})
afterAll(async () => {
  await fake.close()
})
afterEach(() => {
  fake.heal()
  fake.refuseTokens(false)
  fake.exhaustPartLimit(false)
  fake.restoreFields()
  fake.answerUnknownIds('null')
})

const config = () => ({ clientId: NEXAR_FAKE_CLIENT_ID, clientSecret: NEXAR_FAKE_SECRET, apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl })
type Config = ReturnType<typeof nexarSource.configSchema.parse>

/**
 * A context over the fake. `secrets: false` gives an HTTP client that is not
 * told the secret, so only the source keeps it out of messages; `memo` and
 * `now` let tests share a token and move the clock.
 */
function context(options: { config?: Record<string, unknown>; secrets?: boolean; memo?: Map<string, unknown>; now?: () => Date; timeoutMs?: number } = {}): SourceContext<Config> {
  const raw = { ...config(), ...options.config }
  return {
    config: nexarSource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: options.secrets === false ? [] : [String(raw.clientSecret)], timeoutMs: options.timeoutMs ?? 2_000 }),
    signal: new AbortController().signal,
    memo: options.memo ?? new Map(),
    now: options.now ?? (() => NOW),
  }
}

/** Requests the fake saw from `from` on, split into token and GraphQL requests. */
function seenSince(from: number) {
  const seen = fake.seen.slice(from)
  return { token: seen.filter((r) => r.path === NEXAR_TOKEN_PATH), api: seen.filter((r) => r.path === NEXAR_GRAPHQL_PATH) }
}

/** The GraphQL request a body carries. */
function graphqlRequest(body: string): { query: string; variables: Record<string, unknown>; operationName?: string } {
  return JSON.parse(body) as { query: string; variables: Record<string, unknown>; operationName?: string }
}

/** A context whose memo already holds a token, so the next fault hits the GraphQL endpoint rather than the token endpoint. */
async function withToken(options: Parameters<typeof context>[0] = {}): Promise<SourceContext<Config>> {
  const ctx = context(options)
  await nexarSource.fetch(LM358DR, ctx)
  return ctx
}

/** The next request answers `status` with `body` (JSON unless a string). */
function once(status: number, body: unknown, headers: Record<string, string> = {}): void {
  fake.fail({ kind: 'status', status, body: typeof body === 'string' ? body : JSON.stringify(body), headers }, 1)
}

testSource(nexarSource, {
  config,
  invalidConfig: { clientId: 'id-123', clientSecret: '', apiUrl: 'ftp://api.nexar.com/graphql' },
  badCredentials: () => ({ ...config(), clientSecret: WRONG_SECRET }),
  query: 'LM358',
  emptyQuery: 'ZZ9-NO-SUCH-PART',
  ref: LM358DR,
  unknownRef: '999999999',
})

// A fresh context has no token, so every fault of the matrix hits the token
// endpoint first and must map the same; none is skipped. The same faults past
// the token are in "nexar failures past the token" below.
testFailureMatrix(nexarSource, { fake: () => fake, config, ref: LM358DR, query: 'LM358' })

describe('nexar config', () => {
  it("defaults to Nexar's documented endpoints, the supply scope, US and USD, and refuses what it does not know", () => {
    expect(nexarSource.configSchema.parse({ clientId: 'id-123', clientSecret: 'secret-456' })).toEqual({
      clientId: 'id-123',
      clientSecret: 'secret-456',
      apiUrl: 'https://api.nexar.com/graphql',
      tokenUrl: 'https://identity.nexar.com/connect/token',
      scope: 'supply.domain',
      country: 'US',
      currency: 'USD',
    })
    for (const bad of [
      {},
      { clientId: 'id-123' },
      { clientId: 'id-123', clientSecret: 's', apiKey: 'k' },
      { clientId: 'id-123', clientSecret: 's', currency: 'usd' },
      { clientId: 'id-123', clientSecret: 's', country: 'USA' },
      { clientId: 'id 123', clientSecret: 's' },
      { clientId: 'id-123', clientSecret: 's', scope: 'supply."domain"' },
      { clientId: 'id-123', clientSecret: 's', tokenUrl: 'not a url' },
    ]) {
      expect(nexarSource.configSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })

  it('declares 300 requests a minute and no daily cap, only the client secret as a secret, and every capability', () => {
    expect(nexarSource).toMatchObject({ type: 'nexar', title: 'Nexar (Octopart)' })
    expect(nexarSource.limits).toEqual({ requestsPerMinute: 300, requestsPerDay: null })
    expect(nexarSource.secretFields).toEqual(['clientSecret'])
    expect(nexarSource.capabilities).toEqual({ search: true, offers: true, lifecycle: true })
  })
})

describe('the access token', () => {
  it('is fetched once and reused across calls sharing a memo', async () => {
    const memo = new Map<string, unknown>()
    const from = fake.seen.length
    await nexarSource.search('LM358', context({ memo }), 5)
    await nexarSource.fetch(LM358DR, context({ memo }))
    await nexarSource.search('dual operational amplifier', context({ memo }), 5)
    const { token, api } = seenSince(from)
    expect(token).toHaveLength(1)
    expect(api).toHaveLength(3)
    expect(new Set(api.map((r) => r.headers.authorization)).size).toBe(1)
    expect(api[0]!.headers.authorization).toMatch(/^Bearer fake-nexar-access-token-/)
  })

  it('is fetched again for another memo, and once its 24 hours are over', async () => {
    const memo = new Map<string, unknown>()
    let now = NOW
    const from = fake.seen.length
    await nexarSource.fetch(LM358DR, context({ memo, now: () => now }))
    await nexarSource.fetch(LM358DR, context())
    now = new Date(NOW.getTime() + 23 * 3_600_000)
    await nexarSource.fetch(LM358DR, context({ memo, now: () => now }))
    expect(seenSince(from).token).toHaveLength(2)
    now = new Date(NOW.getTime() + 24 * 3_600_000)
    await nexarSource.fetch(LM358DR, context({ memo, now: () => now }))
    expect(seenSince(from).token).toHaveLength(3)
  })

  it('is requested as Nexar documents: client_credentials with the supply scope in a form body', async () => {
    const from = fake.seen.length
    await nexarSource.fetch(LM358DR, context())
    const [sent] = seenSince(from).token
    expect(sent!.method).toBe('POST')
    expect(sent!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/)
    const form = new URLSearchParams(sent!.body)
    expect(form.get('grant_type')).toBe('client_credentials')
    expect(form.get('client_id')).toBe(NEXAR_FAKE_CLIENT_ID)
    expect(form.get('client_secret')).toBe(NEXAR_FAKE_SECRET)
    expect(form.get('scope')).toBe('supply.domain')
  })

  it('is forgotten and fetched once more when Nexar refuses it (AuthInvalidToken, 401)', async () => {
    const memo = new Map<string, unknown>()
    await nexarSource.fetch(LM358DR, context({ memo }))
    fake.revokeTokens()
    const from = fake.seen.length
    expect((await nexarSource.fetch(LM358DR, context({ memo })))?.mpn).toBe('LM358DR')
    const { token, api } = seenSince(from)
    expect(token).toHaveLength(1)
    expect(api).toHaveLength(2)
    expect(api[0]!.headers.authorization).not.toBe(api[1]!.headers.authorization)
    // The new token is kept.
    const next = fake.seen.length
    await nexarSource.search('LM358', context({ memo }), 2)
    expect(seenSince(next).token).toHaveLength(0)
  })

  it('is also fetched once more for an AuthExpiredToken error answered with 200', async () => {
    const ctx = await withToken()
    once(200, { errors: [{ message: 'The access token has expired', extensions: { code: 'AuthExpiredToken' } }] })
    const from = fake.seen.length
    expect(await nexarSource.search('LM358', ctx, 1)).toHaveLength(1)
    expect(seenSince(from).token).toHaveLength(1)
    expect(seenSince(from).api).toHaveLength(2)
  })

  it('a second refusal is an `auth` SourceError quoting Nexar, after exactly one retry', async () => {
    for (const call of [(ctx: SourceContext<Config>) => nexarSource.fetch(LM358DR, ctx), (ctx: SourceContext<Config>) => nexarSource.search('LM358', ctx, 5)]) {
      const ctx = await withToken()
      fake.refuseTokens(true)
      const from = fake.seen.length
      const error = await failure(call(ctx))
      expect(error.kind).toBe('auth')
      expect(error.message).toContain('Token validation failed')
      expect(seenSince(from).api).toHaveLength(2)
      expect(seenSince(from).token).toHaveLength(1)
      fake.refuseTokens(false)
    }
  })

  it('a wrong secret is refused at the token endpoint (400 invalid_client): `auth`, and no GraphQL request is made', async () => {
    const from = fake.seen.length
    const error = await failure(nexarSource.search('LM358', context({ config: { clientSecret: WRONG_SECRET } }), 5))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('invalid_client')
    expect(seenSince(from).api).toHaveLength(0)
  })

  it('a scope the identity server does not give is `auth` too', async () => {
    const error = await failure(nexarSource.fetch(LM358DR, context({ config: { scope: 'design.domain' } })))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('invalid_scope')
  })

  it("a 429 from the token endpoint carries its Retry-After, as does a 503's", async () => {
    once(429, '{}', { 'retry-after': '9' })
    expect(await failure(nexarSource.fetch(LM358DR, context()))).toMatchObject({ kind: 'quota', retryAfter: 9 })
    once(503, 'down', { 'retry-after': '30' })
    expect(await failure(nexarSource.fetch(LM358DR, context()))).toMatchObject({ kind: 'unavailable', retryAfter: 30 })
  })
})

describe('nexar requests', () => {
  it('searches an MPN with supSearchMpn, the query as a GraphQL variable, never spliced into the document', async () => {
    // Quotes, braces and a comment: as text in the document, this would break out of the string.
    const tricky = 'LM358"){x}#'
    const from = fake.seen.length
    expect(await nexarSource.search(`  ${tricky} `, context({ config: { country: 'DE', currency: 'EUR' } }), 3)).toEqual([])
    const [sent] = seenSince(from).api
    expect(sent!.method).toBe('POST')
    expect(sent!.headers['content-type']).toMatch(/^application\/json/)
    const request = graphqlRequest(sent!.body)
    expect(request.query).toMatch(/supSearchMpn\(q: \$q, limit: \$limit, country: \$country, currency: \$currency\)/)
    expect(request.query).not.toContain(tricky)
    expect(request.query).not.toContain('LM358')
    expect(request.variables).toEqual({ q: tricky, limit: 3, country: 'DE', currency: 'EUR' })
    expect(request.operationName).toBe('ComplibSearchMpn')
  })

  it('searches keywords with supSearch', async () => {
    const from = fake.seen.length
    const found = await nexarSource.search('dual operational amplifier', context(), 10)
    expect(found.map((c) => c.mpn)).toEqual(['LM358DR', 'LM358N', 'LM358BIDR', 'LM358DT', 'LM358DRG4'])
    const request = graphqlRequest(seenSince(from).api[0]!.body)
    expect(request.query).toMatch(/supSearch\(q: \$q/)
    expect(request.variables.q).toBe('dual operational amplifier')
  })

  it('fetches with supParts, the ref as the only id in a variable', async () => {
    const from = fake.seen.length
    await nexarSource.fetch(` ${LM358DR} `, context())
    const request = graphqlRequest(seenSince(from).api[0]!.body)
    expect(request.query).toMatch(/supParts\(ids: \$ids, country: \$country, currency: \$currency\)/)
    expect(request.variables).toEqual({ ids: [LM358DR], country: 'US', currency: 'USD' })
  })

  it('asks at most the 100 parts Nexar allows (each counts against the part limit), and nothing for what cannot be asked', async () => {
    const before = fake.partsReturned()
    expect(await nexarSource.search('LM358', context(), 2)).toHaveLength(2)
    expect(fake.partsReturned() - before).toBe(2)
    await nexarSource.search('LM358', context(), 500)
    expect(graphqlRequest(fake.seen.at(-1)!.body).variables.limit).toBe(100)
    const from = fake.seen.length
    expect(await nexarSource.search('   ', context(), 10)).toEqual([])
    expect(await nexarSource.search('LM358', context(), Number.NaN)).toEqual([])
    expect(await nexarSource.search('LM358', context(), 0)).toEqual([])
    expect(await nexarSource.fetch('   ', context())).toBeNull()
    expect(await nexarSource.fetch('lm358/../x', context())).toBeNull()
    expect(fake.seen.length).toBe(from)
  })
})

describe('nexar search', () => {
  it('answers candidates in the order Nexar ranks them, with the stock summed over distributors', async () => {
    const found = await nexarSource.search('LM358', context(), 10)
    expect(found.map((c) => c.ref)).toEqual([LM358DR, '42315325', '17738942', '1109927384', '55512', '66204417'])
    expect(found[0]).toEqual({
      ref: LM358DR,
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      description: 'Dual Operational Amplifier, 0.7 MHz, 3-32 V, SOIC-8',
      imageUrl: 'https://sigma.octopart.com/23011346/image/Texas-Instruments-LM358DR.jpg',
      productUrl: 'https://octopart.com/lm358dr-texas-instruments-39619421',
      lifecycle: 'active',
      // Digi-Key 15,230 + 45,000 and Mouser 9,876; the broker is not counted.
      stock: 70106,
    })
    expect(found.map((c) => c.lifecycle)).toEqual(['active', 'nrnd', 'obsolete', 'preview', 'active', 'obsolete'])
  })

  it('puts the exact MPN first', async () => {
    const found = await nexarSource.search('lm358dt', context(), 3)
    expect(found[0]!.mpn).toBe('LM358DT')
  })
})

describe('nexar fetch', () => {
  it('maps a SupPart onto the contract, one offer per seller offer', async () => {
    expect(await nexarSource.fetch(LM358DR, context())).toEqual({
      ref: LM358DR,
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR',
      name: null,
      description: 'Dual Operational Amplifier, 0.7 MHz, 3-32 V, SOIC-8',
      categoryHints: ['Integrated Circuits (ICs)', 'Linear ICs', 'Operational Amplifiers - Op Amps'],
      parameters: [
        { name: 'Case/Package', value: 'SOIC', unit: null },
        { name: 'Number of Channels', value: '2', unit: null },
        { name: 'Gain Bandwidth Product', value: '700', unit: 'kHz' },
        { name: 'Max Supply Voltage', value: '32', unit: 'V' },
        { name: 'Number of Pins', value: '8', unit: null },
      ],
      datasheetUrl: 'https://www.ti.com/lit/ds/symlink/lm358.pdf',
      imageUrl: 'https://sigma.octopart.com/23011346/image/Texas-Instruments-LM358DR.jpg',
      productUrl: 'https://octopart.com/lm358dr-texas-instruments-39619421',
      lifecycle: 'active',
      supplierStatus: 'Production',
      package: 'SOIC',
      rohs: true,
      offers: [
        {
          supplier: 'Digi-Key',
          sku: '296-1014-1-ND',
          url: 'https://octopart.com/click/track?ct=offers&ai=8a1e4714&sig=0a3d&sid=1001',
          stock: 15230,
          minimumQuantity: 1,
          multiple: null,
          packaging: 'Cut Tape',
          currency: 'USD',
          priceBreaks: [
            { quantity: 1, price: 0.5 },
            { quantity: 10, price: 0.338 },
            { quantity: 100, price: 0.2109 },
          ],
          fetchedAt: NOW.toISOString(),
        },
        {
          supplier: 'Digi-Key',
          sku: '296-1014-2-ND',
          url: 'https://octopart.com/click/track?ct=offers&ai=8a1e4714&sig=0a3d&sid=1002',
          stock: 45000,
          minimumQuantity: 2500,
          multiple: 2500,
          packaging: 'Tape & Reel',
          currency: 'USD',
          priceBreaks: [
            { quantity: 2500, price: 0.12544 },
            { quantity: 5000, price: 0.11638 },
          ],
          fetchedAt: NOW.toISOString(),
        },
        {
          supplier: 'Mouser',
          sku: '595-LM358DR',
          url: 'https://octopart.com/click/track?ct=offers&ai=8a1e4714&sig=0a3d&sid=2001',
          stock: 9876,
          minimumQuantity: 1,
          multiple: 1,
          packaging: 'Cut Tape',
          currency: 'USD',
          priceBreaks: [
            { quantity: 1, price: 0.48 },
            { quantity: 10, price: 0.335 },
            { quantity: 100, price: 0.209 },
          ],
          fetchedAt: NOW.toISOString(),
        },
      ],
    })
  })

  it("prices an offer in the currency asked when the seller prices in it, else in the seller's own", async () => {
    const euros = await nexarSource.fetch(LM358DR, context({ config: { currency: 'EUR' } }))
    expect(euros!.offers.map((o) => [o.supplier, o.currency])).toEqual([
      ['Digi-Key', 'USD'],
      ['Digi-Key', 'USD'],
      ['Mouser', 'EUR'],
    ])
    expect(euros!.offers[2]!.priceBreaks).toEqual([
      { quantity: 1, price: 0.45 },
      { quantity: 10, price: 0.31 },
    ])
    const pounds = await nexarSource.fetch('55512', context())
    expect(pounds!.offers).toEqual([expect.objectContaining({ supplier: 'Farnell', currency: 'GBP', minimumQuantity: 5, multiple: 5, priceBreaks: [{ quantity: 5, price: 0.312 }, { quantity: 100, price: 0.198 }] })])
  })

  it('maps the lifecycle from the lifecyclestatus spec, keeping Nexar words without the "Last Updated" time', async () => {
    const nrnd = await nexarSource.fetch('42315325', context())
    expect(nrnd).toMatchObject({ mpn: 'LM358N', lifecycle: 'nrnd', supplierStatus: 'NRND', package: 'DIP', imageUrl: null })
    // 0 is a count; -2 is Nexar's "in stock, no quantity given": not a count.
    expect(nrnd!.offers.map((o) => [o.supplier, o.stock, o.minimumQuantity, o.multiple])).toEqual([
      ['Digi-Key', 0, 1, null],
      ['Arrow Electronics', null, 50, 50],
    ])
    expect(await nexarSource.fetch('17738942', context())).toMatchObject({ manufacturer: 'National Semiconductor', lifecycle: 'obsolete', supplierStatus: 'Obsolete', rohs: false, datasheetUrl: null, parameters: [{ name: 'Case/Package', value: 'DIP', unit: null }] })
    expect(await nexarSource.fetch('1109927384', context())).toMatchObject({ lifecycle: 'preview', supplierStatus: 'New' })
    expect(await nexarSource.fetch('66204417', context())).toMatchObject({ lifecycle: 'obsolete', supplierStatus: 'EOL' })
  })

  it('keeps at most 50 offers', async () => {
    const part = await nexarSource.fetch('66204417', context())
    expect(part!.offers).toHaveLength(50)
    expect(part!.offers.at(-1)).toMatchObject({ supplier: 'Distributor 25', sku: 'D25-LM358DRG4-TR' })
  })

  it('answers null for an id supParts does not know, whether it answers a null item or none', async () => {
    expect(await nexarSource.fetch('999999999', context())).toBeNull()
    fake.answerUnknownIds('omitted')
    expect(await nexarSource.fetch('999999999', context())).toBeNull()
  })
})

describe('reading Nexar words', () => {
  it.each([
    ['Production', 'active'],
    ['Production (Last Updated: 2 years ago)', 'active'],
    ['Active', 'active'],
    ['NRND', 'nrnd'],
    ['Not Recommended for New Designs', 'nrnd'],
    ['EOL', 'obsolete'],
    ['Obsolete', 'obsolete'],
    ['New', 'preview'],
    ['Pre-release', 'preview'],
    ['', 'unknown'],
    [null, 'unknown'],
    ['Something else', 'unknown'],
  ] as const)('lifecycle %j is %s', (status, lifecycle) => {
    expect(nexarLifecycle(status)).toBe(lifecycle)
  })

  it.each([
    ['Compliant', true],
    ['RoHS3 Compliant', true],
    ['Compliant by Exemption', true],
    ['Non-Compliant', false],
    ['Not Compliant', false],
    ['Unknown', null],
    [null, null],
  ] as const)('RoHS %j is %j', (value, rohs) => {
    expect(nexarRohs(value)).toBe(rohs)
  })
})

describe('nexar GraphQL errors', () => {
  it('a spent part limit (500 with its GraphQL error) is `quota` until the limit resets on the 1st', async () => {
    const ctx = await withToken()
    fake.exhaustPartLimit(true)
    const error = await failure(nexarSource.search('LM358', ctx, 5))
    expect(error.kind).toBe('quota')
    expect(error.message).toContain('You have exceeded your part limit of 1000')
    // From 2026-11-26T12:00Z to 2026-12-01T00:00Z.
    expect(error.retryAfter).toBe(4.5 * 86_400)
  })

  it('a field Nexar\'s schema no longer has is `bad-answer`, as a 400 or a 200 answer', async () => {
    const ctx = await withToken()
    fake.dropField('SupOffer', 'orderMultiple')
    const from = fake.seen.length
    const error = await failure(nexarSource.fetch(LM358DR, ctx))
    expect(error.kind).toBe('bad-answer')
    expect(error.message).toContain('400: The field `orderMultiple` does not exist on the type `SupOffer`.')
    expect(seenSince(from).api).toHaveLength(1)
    once(200, { errors: [{ message: 'The field `totalAvail` does not exist on the type `SupPart`.', extensions: { type: 'SupPart', field: 'totalAvail' } }] })
    expect((await failure(nexarSource.search('LM358', ctx, 5))).kind).toBe('bad-answer')
  })

  it('an authorization error that is not about the token is `auth` at once; any other GraphQL error is `refused`', async () => {
    const ctx = await withToken()
    once(200, { errors: [{ message: 'The current user is not authorized to access this resource.', extensions: { code: 'AUTH_NOT_AUTHORIZED' } }], data: null })
    const from = fake.seen.length
    expect((await failure(nexarSource.fetch(LM358DR, ctx))).kind).toBe('auth')
    expect(seenSince(from).api).toHaveLength(1)
    once(200, { errors: [{ message: 'The search query is too long.' }], data: { supSearchMpn: null } })
    const refused = await failure(nexarSource.search('LM358', ctx, 5))
    expect(refused.kind).toBe('refused')
    expect(refused.message).toContain('The search query is too long.')
  })
})

describe('nexar failures past the token', () => {
  it('403 is `auth`; 429 is `quota` with its Retry-After; 500 and 503 are `unavailable`', async () => {
    const ctx = await withToken()
    once(403, { message: 'forbidden' })
    expect((await failure(nexarSource.fetch(LM358DR, ctx))).kind).toBe('auth')
    once(429, '{}', { 'retry-after': '42' })
    expect(await failure(nexarSource.search('LM358', ctx, 5))).toMatchObject({ kind: 'quota', retryAfter: 42 })
    once(500, 'oops')
    expect(await failure(nexarSource.fetch(LM358DR, ctx))).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('500: oops') })
    once(503, '', { 'retry-after': '120' })
    expect(await failure(nexarSource.fetch(LM358DR, ctx))).toMatchObject({ kind: 'unavailable', retryAfter: 120 })
  })

  it('a timeout or an answer past the bounds comes through graphql-request as the HTTP client\'s own SourceError', async () => {
    const ctx = await withToken({ timeoutMs: 300 })
    fake.fail({ kind: 'hang' }, 1)
    const timeout = await failure(nexarSource.fetch(LM358DR, ctx))
    expect(timeout.kind).toBe('timeout')
    expect(timeout.message).toContain('did not answer within 300 ms')
    const roomy = await withToken()
    fake.fail({ kind: 'huge', bytes: 9 * 1024 * 1024 }, 1)
    const huge = await failure(nexarSource.search('LM358', roomy, 5))
    expect(huge.kind).toBe('bad-answer')
    expect(huge.message).toContain('answered more than')
  })

  it('malformed JSON, or data of another shape than the schema, is `bad-answer`', async () => {
    const ctx = await withToken()
    fake.fail({ kind: 'malformed' }, 1)
    expect((await failure(nexarSource.search('LM358', ctx, 5))).kind).toBe('bad-answer')
    once(200, 'a plain text answer', { 'content-type': 'text/plain' })
    expect((await failure(nexarSource.search('LM358', ctx, 5))).kind).toBe('bad-answer')
    for (const body of [{}, { data: null }, { data: { supSearchMpn: null } }, { data: { supSearchMpn: { results: [{ part: { mpn: 'LM358DR' } }] } } }, { data: { supSearchMpn: { results: [{ part: { id: '1', mpn: 42 } }] } } }]) {
      once(200, body)
      expect((await failure(nexarSource.search('LM358', ctx, 5))).kind, JSON.stringify(body)).toBe('bad-answer')
    }
    for (const body of [{ data: { supParts: 'none' } }, { data: { supParts: [{ id: LM358DR, sellers: [{ offers: [{ prices: [{ price: '0.5' }] }] }] }] } }, { data: { supParts: [{ id: LM358DR, mpn: ' ' }] } }]) {
      once(200, body)
      expect((await failure(nexarSource.fetch(LM358DR, ctx))).kind, JSON.stringify(body)).toBe('bad-answer')
    }
  })

  it('a part without an MPN is left out of a search', async () => {
    const ctx = await withToken()
    once(200, { data: { supSearchMpn: { hits: 2, results: [{ part: { id: '1', mpn: ' ' } }, { part: { id: '2', mpn: 'LM358X' } }] } } })
    expect((await nexarSource.search('LM358', ctx, 5)).map((c) => c.ref)).toEqual(['2'])
  })
})

describe('the credentials', () => {
  it('appear in no error message, even where Nexar repeats them and the HTTP client is not told them', async () => {
    const ctx = await withToken({ secrets: false })
    const accessToken = String(fake.seen.filter((r) => r.path === NEXAR_GRAPHQL_PATH).at(-1)!.headers.authorization).replace(/^Bearer /, '')
    const echo = `${NEXAR_FAKE_SECRET} ${accessToken}`
    const messages: string[] = []
    // The token endpoint repeating the secret in its error.
    once(400, { error: NEXAR_FAKE_SECRET, error_description: echo })
    messages.push((await failure(nexarSource.fetch(LM358DR, context({ secrets: false })))).message)
    once(500, `upstream said ${echo}`)
    messages.push((await failure(nexarSource.fetch(LM358DR, context({ secrets: false })))).message)
    // The GraphQL endpoint repeating the secret and the token, in an error and in a body.
    for (const [status, body] of [
      [200, { errors: [{ message: `bad request ${echo}` }] }],
      [500, { errors: [{ message: `You have exceeded your part limit ${echo}` }] }],
      [502, `gateway ${echo}`],
      [400, { errors: [{ message: `The field \`x\` does not exist on the type \`${echo}\`.` }] }],
    ] as const) {
      once(status, body)
      messages.push((await failure(nexarSource.search('LM358', ctx, 5))).message)
    }
    expect(messages).toHaveLength(6)
    // What Nexar said is still quoted, its credentials replaced.
    expect(messages[0]).toContain('refused the client credentials (…)')
    expect(messages[2]).toContain('bad request … …')
    for (const message of messages) {
      expect(message).not.toContain(NEXAR_FAKE_SECRET)
      expect(message).not.toContain(accessToken)
    }
  })

  it('appear in no answer', async () => {
    const ctx = context({ secrets: false })
    const answers = JSON.stringify([await nexarSource.search('LM358', ctx, 10), await nexarSource.fetch(LM358DR, ctx)])
    expect(answers).not.toContain(NEXAR_FAKE_SECRET)
    expect(answers).not.toContain('fake-nexar-access-token')
  })
})
