import { createSourceHttp, type PeerPart, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { partdbAttachmentKind, partdbLifecycle, partdbParameterValue, partdbSource, partdbStatus, partdbTags, partdbUnitPrice } from '../src/partdb'
import { testFailureMatrix } from './fakes/failures'
import { PARTDB_FAKE_REF, PARTDB_FAKE_TOKEN, startPartdbFake, type PartdbDb, type PartdbFake, type PartdbNode, type PartdbPart } from './fakes/partdb'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_TOKEN = 'tcp_00000000000000000000000000000000000000000000000000000000deadbeef'

let fake: PartdbFake
beforeAll(async () => {
  fake = await startPartdbFake()
})
afterAll(async () => {
  await fake.close()
})

const config = () => ({ baseUrl: fake.url, token: PARTDB_FAKE_TOKEN })
type Config = { baseUrl: string; token: string }

/** A context over a fake; `secrets: false` gives an HTTP client not told the token, so only the source keeps it out of messages. */
function context(options: { over?: PartdbFake; token?: string; secrets?: boolean } = {}): SourceContext<Config> {
  const raw = { baseUrl: (options.over ?? fake).url, token: options.token ?? PARTDB_FAKE_TOKEN }
  return {
    config: partdbSource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: options.secrets === false ? [] : [raw.token], timeoutMs: 5_000 }),
    signal: new AbortController().signal,
    memo: new Map(),
    now: () => NOW,
  }
}

async function pullAll(ctx: SourceContext<Config>): Promise<{ parts: PeerPart[]; progress: Array<[number, number | null]> }> {
  const parts: PeerPart[] = []
  const progress: Array<[number, number | null]> = []
  for await (const part of partdbSource.pull!(ctx, (done, total) => progress.push([done, total]))) parts.push(part)
  return { parts, progress }
}

testSource(partdbSource, {
  config,
  invalidConfig: { baseUrl: 'ftp://parts.example.com', token: 'not-a-part-db-token' },
  badCredentials: () => ({ baseUrl: fake.url, token: WRONG_TOKEN }),
  query: 'LM358',
  emptyQuery: 'NO-SUCH-PART-ZZ9',
  ref: PARTDB_FAKE_REF,
  unknownRef: '999999',
  pulledParts: 300,
})

testFailureMatrix(partdbSource, { fake: () => fake, config, ref: PARTDB_FAKE_REF, query: 'LM358' })

// ---------------------------------------------------------------------------
// What every pulled part must be, computed from the fake's raw records

const STATUS: Record<string, PeerPart['status']> = { announced: 'draft', active: 'active', nrfnd: 'nrnd', eol: 'nrnd', discontinued: 'obsolete' }
const KIND_BY_TYPE: Record<string, PeerPart['attachments'][number]['kind']> = { Datasheet: 'datasheet', Picture: 'image', '3D model': 'cad' }

function namesFromRoot(list: PartdbNode[], id: number | null): string[] {
  const names: string[] = []
  for (let n = list.find((x) => x.id === id); n; n = list.find((x) => x.id === n!.parent)) names.unshift(n.name)
  return names
}

function parameterValue(p: PartdbPart['parameters'][number]): string {
  if (p.value_min === null && p.value_typical === null && p.value_max === null) return p.value_text
  const range = p.value_min !== null && p.value_max !== null ? `${p.value_min} ... ${p.value_max}` : p.value_max !== null ? `max. ${p.value_max}` : p.value_min !== null ? `min. ${p.value_min}` : ''
  const numbers = p.value_typical === null ? range : range === '' ? `${p.value_typical}` : `${p.value_typical} (${range})`
  return p.value_text === '' ? numbers : `${numbers} [${p.value_text}]`
}

function expectedPeer(db: PartdbDb, p: PartdbPart, baseUrl: string): PeerPart {
  const nameOf = (list: PartdbNode[], id: number | null) => list.find((x) => x.id === id)?.name ?? null
  const offers: PeerPart['offers'] = []
  for (const od of p.orderdetails.filter((o) => !o.obsolete)) {
    const byCurrency = new Map<string, Array<{ quantity: number; price: number }>>()
    for (const pd of od.pricedetails) {
      const currency = db.currencies.find((c) => c.id === pd.currency)?.iso_code ?? db.baseCurrency
      byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), { quantity: pd.min_discount_quantity, price: Number(pd.price) / pd.price_related_quantity }])
    }
    const groups: Array<[string | null, Array<{ quantity: number; price: number }>]> = byCurrency.size > 0 ? [...byCurrency] : [[null, []]]
    for (const [currency, breaks] of groups) {
      offers.push({
        supplier: nameOf(db.suppliers, od.supplier)!,
        sku: od.supplierpartnr || null,
        url: od.supplier_product_url || null,
        stock: null,
        minimumQuantity: null,
        multiple: null,
        packaging: null,
        currency,
        priceBreaks: [...breaks].sort((a, b) => a.quantity - b.quantity),
        fetchedAt: NOW.toISOString(),
      })
    }
  }
  return {
    key: String(p.id),
    name: p.name,
    ipn: p.ipn || null,
    description: p.description || null,
    categoryPath: namesFromRoot(db.categories, p.category),
    tags: [...new Set(p.tags.split(',').map((t) => t.trim()))].filter((t) => t !== ''),
    status: p.manufacturing_status ? STATUS[p.manufacturing_status]! : null,
    parameters: p.parameters.map((x) => ({ name: x.name, value: parameterValue(x), unit: x.unit || null })),
    mpns: p.manufacturer_product_number ? [{ manufacturer: nameOf(db.manufacturers, p.manufacturer) ?? 'Unknown', partNumber: p.manufacturer_product_number }] : [],
    offers,
    stock: p.partLots.filter((l) => !l.instock_unknown && l.storage_location !== null).map((l) => ({ path: namesFromRoot(db.storageLocations, l.storage_location), quantity: Math.round(l.amount) })),
    attachments: p.attachments.map((a) => {
      const served = a.internal_path?.startsWith('%SECURE%') ? `/attachment/${a.id}/view` : a.internal_path?.replace('%MEDIA%', '/media')
      const type = nameOf(db.attachmentTypes, a.attachment_type)!
      return { name: a.name, url: a.external_path ?? `${baseUrl}${served}`, kind: KIND_BY_TYPE[type] ?? (a.original_filename?.endsWith('.pdf') ? 'document' : 'other') }
    }),
    kicad: {
      symbol: p.eda_info.kicad_symbol || null,
      footprint: p.eda_info.kicad_footprint || null,
      value: p.eda_info.value || null,
      excludeFromBom: p.eda_info.exclude_from_bom,
      excludeFromBoard: p.eda_info.exclude_from_board,
      excludeFromSim: p.eda_info.exclude_from_sim,
    },
    modifiedAt: new Date(p.lastModified).toISOString(),
  }
}

describe('partdb pull', () => {
  it('pulls every part losslessly, field by field, in key order', async () => {
    const { parts, progress } = await pullAll(context())
    const ids = fake.db.parts.map((p) => p.id).sort((a, b) => a - b)
    expect(parts.map((p) => p.key)).toEqual(ids.map(String))
    for (const part of parts) {
      const raw = fake.db.parts.find((p) => String(p.id) === part.key)!
      expect(part, `part ${part.key}`).toEqual(expectedPeer(fake.db, raw, fake.url))
    }
    expect(progress[0]).toEqual([0, 300])
    expect(progress.at(-1)).toEqual([300, 300])
    expect(progress.map(([done]) => done)).toEqual([...Array(301).keys()])
  })

  it('meets the variety the fake library is meant to have', async () => {
    const { parts } = await pullAll(context())
    expect(new Set(parts.map((p) => p.status))).toEqual(new Set(['draft', 'active', 'nrnd', 'obsolete', null]))
    expect(parts.some((p) => p.categoryPath.join('|') === 'Connectors|In → Out adapters')).toBe(true)
    expect(parts.some((p) => p.mpns[0]?.manufacturer === 'Unknown')).toBe(true)
    expect(parts.some((p) => p.mpns.length === 0)).toBe(true)
    expect(parts.some((p) => p.offers.length >= 2 && p.offers[0]!.supplier === p.offers[1]!.supplier)).toBe(true)
    expect(parts.some((p) => p.offers.some((o) => o.priceBreaks.length === 4))).toBe(true)
    expect(parts.some((p) => p.stock.some((s) => s.path.length === 3))).toBe(true)
    expect(new Set(parts.flatMap((p) => p.attachments.map((a) => a.kind)))).toEqual(new Set(['datasheet', 'image', 'cad', 'document', 'other']))
    expect(parts.some((p) => p.kicad.symbol !== null)).toBe(true)
    expect(parts.some((p) => /[^\u0000-\u007f]/.test(p.name))).toBe(true)
  })

  it('lists the parts page by page, ordered by id, and reads each one whole', async () => {
    const before = fake.seen.length
    await pullAll(context())
    const seen = fake.seen.slice(before)
    const listings = seen.filter((r) => r.path === '/api/parts')
    expect(listings.map((r) => r.query.get('page'))).toEqual(['1', '2', '3'])
    for (const r of listings) {
      expect(r.query.get('itemsPerPage')).toBe('100')
      expect(r.query.get('order[id]')).toBe('asc')
    }
    expect(seen.filter((r) => /^\/api\/parts\/\d+$/.test(r.path))).toHaveLength(300)
    for (const path of ['/api/info', '/api/categories', '/api/storage_locations', '/api/attachment_types']) expect(seen.filter((r) => r.path === path)).toHaveLength(1)
    for (const r of seen) {
      expect(r.headers.accept).toBe('application/ld+json')
      expect(r.headers.authorization).toBe(`Bearer ${PARTDB_FAKE_TOKEN}`)
    }
  })

  it('shows changes made at Part-DB in the next pull', async () => {
    const own = await startPartdbFake({ parts: 40 })
    try {
      const ctx = context({ over: own })
      const first = await pullAll(ctx)
      expect(first.parts).toHaveLength(40)
      const part = own.db.parts[0]!
      part.name = 'LM358 umbenannt ✓'
      part.manufacturing_status = 'discontinued'
      part.tags = 'neu, geprüft'
      part.partLots.push({ id: 9001, description: '', comment: '', amount: 42, instock_unknown: false, storage_location: 9, expiration_date: null, needs_refill: false })
      part.orderdetails[0]!.pricedetails[0]!.price = '9.99000'
      part.orderdetails[0]!.pricedetails[0]!.price_related_quantity = 1
      part.orderdetails[0]!.pricedetails[0]!.currency = 3
      part.eda_info.kicad_symbol = 'Device:R'
      part.lastModified = '2026-11-25T10:00:00+01:00'
      // Amplifiers moves under Connectors, taking Op-amps with it.
      own.db.categories.find((c) => c.name === 'Amplifiers')!.parent = 10
      own.db.baseCurrency = 'CHF'
      const removed = own.db.parts.splice(5, 1)[0]!
      const second = await pullAll(ctx)
      expect(second.parts).toHaveLength(39)
      expect(second.parts.map((p) => p.key)).not.toContain(String(removed.id))
      for (const pulled of second.parts) expect(pulled).toEqual(expectedPeer(own.db, own.db.parts.find((p) => String(p.id) === pulled.key)!, own.url))
      const changed = second.parts.find((p) => p.key === String(part.id))!
      expect(changed).toMatchObject({ name: 'LM358 umbenannt ✓', status: 'obsolete', tags: ['neu', 'geprüft'], modifiedAt: '2026-11-25T09:00:00.000Z' })
      expect(changed.categoryPath).toEqual(['Connectors', 'Amplifiers', 'Op-amps'])
      expect(changed.stock).toContainEqual({ path: ['Warehouse', 'Rack 3', 'Bin 12'], quantity: 42 })
      expect(changed.offers[0]).toMatchObject({ currency: 'GBP', priceBreaks: [{ quantity: 1, price: 9.99 }] })
      expect(changed.kicad.symbol).toBe('Device:R')
      expect(second.parts.some((p) => p.offers.some((o) => o.currency === 'CHF'))).toBe(true)
    } finally {
      await own.close()
    }
  })

  it('leaves out a part deleted after the listing, telling progress one fewer', async () => {
    const own = await startPartdbFake({ parts: 10 })
    try {
      const progress: Array<[number, number | null]> = []
      const keys: string[] = []
      for await (const part of partdbSource.pull!(context({ over: own }), (done, total) => progress.push([done, total]))) {
        keys.push(part.key)
        // Once the listing is read, a later part goes away.
        if (keys.length === 1) own.db.parts.splice(4, 1)
      }
      expect(keys).toHaveLength(9)
      expect(progress.at(-1)).toEqual([9, 9])
    } finally {
      await own.close()
    }
  })

  it('stops after the last page, a partial one', async () => {
    const own = await startPartdbFake({ parts: 250 })
    try {
      const { parts } = await pullAll(context({ over: own }))
      expect(parts).toHaveLength(250)
      expect(own.seen.filter((r) => r.path === '/api/parts').map((r) => r.query.get('page'))).toEqual(['1', '2', '3'])
    } finally {
      await own.close()
    }
  })

  it('fails with an `auth` SourceError quoting Part-DB, never the token', async () => {
    const error = await failure(pullAll(context({ token: WRONG_TOKEN, secrets: false })))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('Invalid credentials.')
    expect(error.message).not.toContain(WRONG_TOKEN)
  })
})

// ---------------------------------------------------------------------------

describe('partdb config', () => {
  it('needs the server and a tcp_ token, and nothing else', () => {
    expect(partdbSource.configSchema.parse({ baseUrl: 'https://parts.example.com/partdb', token: 'tcp_abc123' })).toEqual({ baseUrl: 'https://parts.example.com/partdb', token: 'tcp_abc123' })
    expect(partdbSource.configSchema.safeParse({ token: 'tcp_abc123' }).success).toBe(false)
    expect(partdbSource.configSchema.safeParse({ baseUrl: 'https://parts.example.com', token: 'abc123' }).success).toBe(false)
    expect(partdbSource.configSchema.safeParse({ baseUrl: 'https://parts.example.com', token: 'tcp_abc123', extra: 1 }).success).toBe(false)
  })

  it('keeps the token secret and paces requests politely', () => {
    expect(partdbSource.secretFields).toEqual(['token'])
    expect(partdbSource.limits).toEqual({ requestsPerMinute: 600, requestsPerDay: null })
    expect(partdbSource.capabilities).toEqual({ search: true, offers: true, lifecycle: true, pull: true })
  })
})

describe('partdb search and fetch', () => {
  it('searches by a LIKE on the name, then on the MPN', async () => {
    const before = fake.seen.length
    const found = await partdbSource.search(' LM358 ', context(), 5)
    expect(found).toHaveLength(5)
    const sent = fake.seen.slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.path).toBe('/api/parts')
    expect(sent[0]!.query.get('name')).toBe('%LM358%')
    expect(sent[0]!.query.get('itemsPerPage')).toBe('5')
    expect(found[0]).toEqual({
      ref: '4',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR-000',
      description: null,
      imageUrl: null,
      productUrl: 'https://maker.example.com/products/4',
      lifecycle: 'nrnd',
      stock: 0,
    })
  })

  it('finds a part by an MPN its name does not hold', async () => {
    const before = fake.seen.length
    const found = await partdbSource.search('we-010', context(), 10)
    expect(found.map((c) => c.mpn)).toEqual(['WE-010'])
    expect(fake.seen.slice(before).map((r) => r.query.get('manufacturer_product_number'))).toEqual([null, '%we-010%'])
  })

  it('fetches one part whole, prices without a currency in the base currency', async () => {
    const part = await partdbSource.fetch(PARTDB_FAKE_REF, context())
    const raw = fake.db.parts.find((p) => p.id === 4)!
    expect(part).toEqual({
      ref: '4',
      manufacturer: 'Texas Instruments',
      mpn: 'LM358DR-000',
      name: 'LM358-000',
      description: null,
      categoryHints: ['Semiconductors', 'Amplifiers', 'Op-amps'],
      parameters: [
        { name: 'Channels', value: '2', unit: null },
        { name: 'GBW', value: '0.7', unit: 'MHz' },
        { name: 'Supply voltage', value: '3 ... 32', unit: 'V' },
      ],
      datasheetUrl: null,
      imageUrl: null,
      productUrl: 'https://maker.example.com/products/4',
      lifecycle: 'nrnd',
      supplierStatus: 'nrfnd',
      package: 'SOIC-8',
      rohs: null,
      offers: [
        {
          supplier: 'DigiKey',
          sku: 'DK-LM358-000',
          url: 'https://supplier1.example.com/p/LM358-000',
          stock: null,
          minimumQuantity: null,
          multiple: null,
          packaging: null,
          currency: 'EUR',
          priceBreaks: [{ quantity: 1, price: Number(raw.orderdetails[0]!.pricedetails[0]!.price) / 100 }],
          fetchedAt: NOW.toISOString(),
        },
      ],
    })
    expect(part!.offers[0]!.priceBreaks[0]!.price).toBeCloseTo(0.137, 10)
  })

  it('links datasheet and picture attachments of a fetched part', async () => {
    const raw = fake.db.parts.find((p) => p.attachments.length === 4 && p.attachments.some((a) => a.external_path?.endsWith('.pdf')))!
    const part = await partdbSource.fetch(String(raw.id), context())
    const photo = raw.attachments.find((a) => a.name === 'Photo')!
    expect(part!.datasheetUrl).toBe(raw.attachments.find((a) => a.name === 'Datasheet')!.external_path)
    expect(part!.imageUrl).toBe(`${fake.url}${photo.internal_path!.replace('%MEDIA%', '/media')}`)
  })

  it('asks nothing for a ref that cannot be a Part-DB id, and answers null for one it lacks', async () => {
    const before = fake.seen.length
    expect(await partdbSource.fetch('LM358', context())).toBeNull()
    expect(await partdbSource.fetch('-4', context())).toBeNull()
    expect(await partdbSource.search('   ', context(), 10)).toEqual([])
    expect(fake.seen).toHaveLength(before)
    expect(await partdbSource.fetch('999999', context())).toBeNull()
  })

  it('a refused token is `auth`, quoting Part-DB without the token, for search and fetch', async () => {
    for (const call of [partdbSource.search('LM358', context({ token: WRONG_TOKEN, secrets: false }), 5), partdbSource.fetch('4', context({ token: WRONG_TOKEN, secrets: false }))]) {
      const error = await failure(call)
      expect(error.kind).toBe('auth')
      expect(error.message).toContain('Invalid credentials.')
      expect(error.message).not.toContain(WRONG_TOKEN)
    }
  })

  it('an answer of another shape is `bad-answer`', async () => {
    for (const body of [{}, { 'hydra:member': 'none' }, { 'hydra:member': [{ id: 'four' }] }, { 'hydra:member': [{ id: 4, tags: ['a'] }] }]) {
      fake.fail({ kind: 'status', status: 200, body: JSON.stringify(body) }, 1)
      expect((await failure(partdbSource.search('LM358', context(), 5))).kind).toBe('bad-answer')
    }
    fake.fail({ kind: 'status', status: 200, body: JSON.stringify({ id: 4, name: 'x', orderdetails: [{ pricedetails: 'none' }] }) }, 1)
    expect((await failure(partdbSource.fetch('4', context()))).kind).toBe('bad-answer')
  })

  it('a Part-DB error names what it said, without the token even when echoed', async () => {
    fake.fail({ kind: 'status', status: 400, body: JSON.stringify({ title: 'An error occurred', detail: `bad filter for ${PARTDB_FAKE_TOKEN}` }) }, 1)
    const error = await failure(partdbSource.search('LM358', context({ secrets: false }), 5))
    expect(error.kind).toBe('refused')
    expect(error.message).toContain('bad filter')
    expect(error.message).not.toContain(PARTDB_FAKE_TOKEN)
  })
})

describe("reading Part-DB's fields", () => {
  it.each([
    ['announced', 'draft', 'preview'],
    ['active', 'active', 'active'],
    ['nrfnd', 'nrnd', 'nrnd'],
    ['eol', 'nrnd', 'nrnd'],
    ['discontinued', 'obsolete', 'obsolete'],
    ['', null, 'unknown'],
    [null, null, 'unknown'],
  ] as const)('manufacturing status %j is status %j and lifecycle %s', (value, status, lifecycle) => {
    expect(partdbStatus(value)).toBe(status)
    expect(partdbLifecycle(value)).toBe(lifecycle)
  })

  it.each([
    [{ value_text: 'X7R' }, 'X7R'],
    [{ value_typical: 3.3 }, '3.3'],
    [{ value_min: 2.7, value_typical: 3.3, value_max: 5.5 }, '3.3 (2.7 ... 5.5)'],
    [{ value_min: -40, value_max: 125 }, '-40 ... 125'],
    [{ value_max: 0.5 }, 'max. 0.5'],
    [{ value_min: 8, value_typical: 72 }, '72 (min. 8)'],
    [{ value_typical: 100, value_text: 'X7R' }, '100 [X7R]'],
    [{ value_text: '' }, ''],
  ])('parameter %j reads %j', (p, value) => {
    expect(partdbParameterValue(p)).toBe(value)
  })

  it('tags: trimmed, once each, none empty', () => {
    expect(partdbTags(' analog , low-noise ,analog,,')).toEqual(['analog', 'low-noise'])
    expect(partdbTags('')).toEqual([])
    expect(partdbTags(null)).toEqual([])
  })

  it('a price is per its related quantity', () => {
    expect(partdbUnitPrice('12.50000', 100)).toBe(0.125)
    expect(partdbUnitPrice('0.52000', 1)).toBe(0.52)
    expect(partdbUnitPrice('0.52000', 0)).toBe(0.52)
    expect(partdbUnitPrice('', 1)).toBeNull()
    expect(partdbUnitPrice('abc', 1)).toBeNull()
  })

  it.each([
    [{ name: 'Datenblatt', type: 'Dokumente', picture: false, model: false, external: 'https://x.test/a.pdf', filename: null }, 'datasheet'],
    [{ name: 'Front', type: 'Picture', picture: true, model: false, external: null, filename: 'front.png' }, 'image'],
    [{ name: 'Body', type: 'Other', picture: false, model: true, external: null, filename: 'body.x3d' }, 'cad'],
    [{ name: 'Footprint', type: 'Other', picture: false, model: false, external: 'https://x.test/fp.kicad_mod', filename: null }, 'cad'],
    [{ name: 'Shop', type: 'Other', picture: true, model: false, external: 'https://x.test/shop/item', filename: null }, 'other'],
    [{ name: 'Drawing', type: 'Other', picture: true, model: false, external: 'https://x.test/drawing.png', filename: null }, 'image'],
    [{ name: 'Manual', type: 'Other', picture: false, model: false, external: null, filename: 'manual.pdf' }, 'document'],
  ])('attachment %j is %s', (a, kind) => {
    expect(partdbAttachmentKind(a)).toBe(kind)
  })
})
