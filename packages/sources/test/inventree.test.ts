import { PeerPart, createSourceHttp, type SourceContext } from '@complib/core'
import { testSource } from '@complib/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inventreeAttachmentKind, inventreeSource, inventreeTags } from '../src/inventree'
import { testFailureMatrix } from './fakes/failures'
import { INVENTREE_FAKE_TOKEN, inventreeFakeLibrary, startInventreeFake, type FakeTreeNode, type InventreeFake, type InventreeFakeDb } from './fakes/inventree'
import { failure } from './source-failure'

const NOW = new Date('2026-11-26T12:00:00.000Z')
const WRONG_TOKEN = 'inv-0000wrong1111token2222-20260101'

// The fake's library is generated from a seed: the suite's ref and query are chosen from the same one.
const LIBRARY = inventreeFakeLibrary(300)
const REF_PART = [...LIBRARY.parts].sort((a, b) => a.pk - b.pk).find((p) => LIBRARY.supplierParts.some((s) => s.part === p.pk) && LIBRARY.manufacturerParts.some((m) => m.part === p.pk))!
const REF_MPN = LIBRARY.manufacturerParts.filter((m) => m.part === REF_PART.pk).sort((a, b) => a.pk - b.pk)[0]!.MPN

let fake: InventreeFake
beforeAll(async () => {
  fake = await startInventreeFake()
})
afterAll(async () => {
  await fake.close()
})

type Config = { baseUrl: string; token: string }
const config = (): Config => ({ baseUrl: fake.url, token: INVENTREE_FAKE_TOKEN })

function context(options: { on?: InventreeFake; token?: string } = {}): SourceContext<Config> {
  const raw = { baseUrl: (options.on ?? fake).url, token: options.token ?? INVENTREE_FAKE_TOKEN }
  return {
    config: inventreeSource.configSchema.parse(raw),
    http: createSourceHttp({ secrets: [raw.token], timeoutMs: 5_000 }),
    signal: new AbortController().signal,
    memo: new Map(),
    now: () => NOW,
  }
}

async function pullAll(ctx: SourceContext<Config>): Promise<PeerPart[]> {
  const out: PeerPart[] = []
  for await (const part of inventreeSource.pull!(ctx)) out.push(part)
  return out
}

testSource(inventreeSource, {
  config,
  invalidConfig: { baseUrl: 'ftp://inventree.example.com', token: '' },
  badCredentials: () => ({ baseUrl: fake.url, token: WRONG_TOKEN }),
  query: REF_MPN,
  emptyQuery: 'NO-SUCH-PART-ZZ9',
  ref: String(REF_PART.pk),
  unknownRef: '999999',
  pulledParts: 300,
})

testFailureMatrix(inventreeSource, { fake: () => fake, config, ref: String(REF_PART.pk), query: REF_MPN })

// ---------------------------------------------------------------------------
// What a pull must give, computed from the fake's raw records on their own.

function namesTo(nodes: FakeTreeNode[], pk: number): string[] {
  const names: string[] = []
  for (let n = nodes.find((x) => x.pk === pk); n; n = nodes.find((x) => x.pk === n!.parent)) names.unshift(n.name)
  return names
}

const byPk = <T extends { pk: number }>(list: T[]) => [...list].sort((a, b) => a.pk - b.pk)
const byPath = (stock: PeerPart['stock']) => [...stock].sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)))

function expectedPeer(db: InventreeFakeDb, pk: number, base: string): PeerPart {
  const part = db.parts.find((p) => p.pk === pk)!
  const company = (c: number) => db.companies.find((x) => x.pk === c)!.name
  const keywords = part.keywords?.trim() ?? ''
  const words = keywords === '' ? [] : (/[,;]/.test(keywords) ? keywords.split(/[,;]/) : keywords.split(/\s+/)).map((w) => w.trim()).filter(Boolean)
  const tags: string[] = []
  for (const t of [...part.tags, ...words]) if (!tags.some((x) => x.toLowerCase() === t.toLowerCase())) tags.push(t)

  const stock = new Map<string, { path: string[]; quantity: number }>()
  for (const item of db.stockItems.filter((s) => s.part === pk && s.in_stock)) {
    const path = item.location === null ? ['Unsorted'] : namesTo(db.locations, item.location)
    const held = stock.get(path.join('/')) ?? { path, quantity: 0 }
    held.quantity += item.quantity
    stock.set(path.join('/'), held)
  }

  const kind = (file: string | null, comment: string, url: string) => {
    if (/datasheet/i.test(`${file ?? ''} ${comment}`)) return 'datasheet' as const
    const name = file ?? url
    if (/\.(jpg|png)$/.test(name)) return 'image' as const
    if (/\.step$/.test(name)) return 'cad' as const
    if (/\.pdf$/.test(name)) return 'document' as const
    return 'other' as const
  }

  return {
    key: String(pk),
    name: part.name,
    ipn: part.IPN || null,
    description: part.description || null,
    categoryPath: part.category === null ? [] : namesTo(db.categories, part.category),
    tags,
    status: part.active ? 'active' : 'obsolete',
    parameters: byPk(db.parameters.filter((p) => p.model_type === 'part' && p.model_id === pk)).map((p) => {
      const template = db.parameterTemplates.find((t) => t.pk === p.template)!
      return { name: template.name, value: p.data, unit: template.units || null }
    }),
    mpns: byPk(db.manufacturerParts.filter((m) => m.part === pk)).map((m) => ({ manufacturer: company(m.manufacturer), partNumber: m.MPN })),
    offers: byPk(db.supplierParts.filter((s) => s.part === pk)).map((s) => {
      const breaks = db.priceBreaks.filter((b) => b.part === s.pk).sort((a, b) => a.quantity - b.quantity)
      const pack = s.pack_quantity && s.pack_quantity !== '1' ? `pack of ${s.pack_quantity}` : ''
      return {
        supplier: company(s.supplier),
        sku: s.SKU || null,
        url: s.link || null,
        stock: s.available,
        minimumQuantity: null,
        multiple: null,
        packaging: [s.packaging, pack].filter(Boolean).join(', ') || null,
        currency: breaks[0]?.price_currency ?? null,
        priceBreaks: breaks.map((b) => ({ quantity: b.quantity, price: b.price })),
        fetchedAt: NOW.toISOString(),
      }
    }),
    stock: byPath([...stock.values()].map((s) => ({ path: s.path, quantity: Math.floor(s.quantity) })).filter((s) => s.quantity > 0)),
    attachments: byPk(db.attachments.filter((a) => a.model_type === 'part' && a.model_id === pk)).map((a) => {
      if (a.link) return { name: a.comment || a.link.split('/').at(-1)!, url: a.link, kind: kind(null, a.comment, a.link) }
      const file = a.attachment!.split('/').at(-1)!
      return { name: file, url: new URL(a.attachment!, `${base}/`).toString(), kind: kind(file, a.comment, a.attachment!) }
    }),
    kicad: { symbol: null, footprint: null, value: null, excludeFromBom: null, excludeFromBoard: null, excludeFromSim: null },
    modifiedAt: null,
  }
}

function expectLossless(pulled: PeerPart[], db: InventreeFakeDb, base: string): void {
  expect(pulled.map((p) => p.key)).toEqual(byPk(db.parts).map((p) => String(p.pk)))
  for (const got of pulled) {
    PeerPart.parse(got)
    expect({ ...got, stock: byPath(got.stock) }, `part ${got.key}`).toEqual(expectedPeer(db, Number(got.key), base))
  }
}

describe('inventree pull', () => {
  it('gives every one of the 300 parts field by field as the raw records hold it, in key order', async () => {
    expectLossless(await pullAll(context()), fake.db, fake.url)
  })

  it('meets the variety the fake holds (so the comparison above compares something)', async () => {
    const pulled = await pullAll(context())
    const sizes = (f: (p: PeerPart) => number) => new Set(pulled.map(f))
    expect(sizes((p) => p.mpns.length)).toEqual(new Set([0, 1, 2, 3]))
    expect(sizes((p) => p.offers.length)).toEqual(new Set([0, 1, 2]))
    expect(sizes((p) => Math.max(0, ...p.offers.map((o) => o.priceBreaks.length)))).toEqual(new Set([0, 1, 2, 3, 4]))
    expect(new Set(pulled.flatMap((p) => p.offers.map((o) => o.currency)))).toEqual(new Set(['USD', 'EUR', 'CNY', 'GBP']))
    expect(pulled.some((p) => p.categoryPath.length === 3)).toBe(true)
    expect(pulled.some((p) => p.categoryPath.length === 0)).toBe(true)
    expect(pulled.some((p) => p.stock.some((s) => s.path.length === 3))).toBe(true)
    expect(pulled.some((p) => p.stock.some((s) => s.path[0] === 'Unsorted'))).toBe(true)
    expect(pulled.some((p) => p.parameters.some((x) => x.unit === null)) && pulled.some((p) => p.parameters.some((x) => x.unit === 'Ω'))).toBe(true)
    expect(new Set(pulled.flatMap((p) => p.attachments.map((a) => a.kind)))).toEqual(new Set(['datasheet', 'image', 'cad', 'document', 'other']))
    expect(pulled.some((p) => p.attachments.some((a) => a.url.startsWith(`${fake.url}/media/`)))).toBe(true)
    expect(pulled.filter((p) => p.status === 'obsolete').length).toBeGreaterThan(10)
    expect(pulled.some((p) => /[^\u0000-\u007f]/.test(p.name))).toBe(true)
    expect(pulled.some((p) => p.ipn === null) && pulled.some((p) => p.ipn !== null)).toBe(true)
  })

  it('reads each list page by page, asking for the documented detail fields and only stock on the shelf', async () => {
    const before = fake.seen.length
    const progress: Array<[number, number | null]> = []
    for await (const _part of inventreeSource.pull!(context(), (done, total) => progress.push([done, total]))) void _part
    const seen = fake.seen.slice(before)
    const offsets = (path: string) => seen.filter((r) => r.path === path).map((r) => Number(r.query.get('offset')))
    expect(offsets('/api/part/')).toEqual([0, 100, 200])
    expect(offsets('/api/stock/').length).toBeGreaterThan(1)
    expect(offsets('/api/parameter/').length).toBeGreaterThan(1)
    for (const r of seen.filter((x) => x.path !== '/api/')) {
      expect(r.query.get('limit')).toBe('100')
      expect(r.headers.authorization).toBe(`Token ${INVENTREE_FAKE_TOKEN}`)
    }
    expect(seen.find((r) => r.path === '/api/part/')!.query.get('tags')).toBe('true')
    expect(seen.find((r) => r.path === '/api/stock/')!.query.get('in_stock')).toBe('true')
    expect(seen.find((r) => r.path === '/api/company/part/')!.query.get('supplier_detail')).toBe('true')
    expect(seen.find((r) => r.path === '/api/company/part/manufacturer/')!.query.get('manufacturer_detail')).toBe('true')
    expect(seen.find((r) => r.path === '/api/parameter/')!.query.get('model_type')).toBe('part')
    expect(seen.find((r) => r.path === '/api/attachment/')!.query.get('model_type')).toBe('part')
    expect(progress[0]).toEqual([0, 300])
    expect(progress.at(-1)).toEqual([300, 300])
  })

  it('shows a change made at the peer in the next pull', async () => {
    const peer = await startInventreeFake({ parts: 40 })
    try {
      const ctx = context({ on: peer })
      const first = await pullAll(ctx)
      expectLossless(first, peer.db, peer.url)
      const part = byPk(peer.db.parts)[5]!
      part.name = 'Umbenannt – ΩΩ'
      part.active = !part.active
      peer.db.categories.find((c) => c.pk === 2)!.name = 'Widerstände'
      peer.db.parameters.push({ pk: 90_001, template: 4, model_type: 'part', model_id: part.pk, data: '25' })
      peer.db.stockItems = peer.db.stockItems.filter((s) => s.part !== part.pk)
      peer.db.stockItems.push({ pk: 90_002, part: part.pk, location: 3, quantity: 42, in_stock: true })
      peer.db.manufacturerParts.push({ pk: 90_003, part: part.pk, manufacturer: 2, MPN: 'NEW-MPN-1', link: '' })
      const offered = peer.db.supplierParts[0]!
      for (const b of peer.db.priceBreaks.filter((x) => x.part === offered.pk)) b.price = 9.5
      peer.db.attachments.push({ pk: 90_004, model_type: 'part', model_id: part.pk, attachment: null, link: 'https://example.com/new-datasheet.pdf', comment: 'New datasheet' })
      peer.db.parts.push({ ...part, pk: 5_000, name: 'Brand new part', IPN: 'NEW-1', tags: [] })

      const second = await pullAll(ctx)
      expectLossless(second, peer.db, peer.url)
      expect(second).toHaveLength(41)
      const changed = second.find((p) => p.key === String(part.pk))!
      expect(changed.name).toBe('Umbenannt – ΩΩ')
      expect(changed.stock).toEqual([{ path: ['Werkstatt', 'Regal A', 'Fach 1'], quantity: 42 }])
      expect(changed.mpns.at(-1)).toEqual({ manufacturer: 'STMicroelectronics', partNumber: 'NEW-MPN-1' })
      expect(changed.attachments.at(-1)).toEqual({ name: 'New datasheet', url: 'https://example.com/new-datasheet.pdf', kind: 'datasheet' })
      expect(second.find((p) => p.key === String(offered.part))!.offers[0]!.priceBreaks.every((b) => b.price === 9.5)).toBe(true)
      expect(second.some((p) => p.categoryPath.join('/') === 'Passives/Widerstände')).toBe(first.some((p) => p.categoryPath.join('/') === 'Passives/Resistors'))
    } finally {
      await peer.close()
    }
  })

  it('reads parameters from /api/part/parameter/ on a server before API v429', async () => {
    const old = await startInventreeFake({ parts: 40, apiVersion: 428 })
    try {
      expectLossless(await pullAll(context({ on: old })), old.db, old.url)
      expect(old.seen.some((r) => r.path === '/api/part/parameter/')).toBe(true)
      expect(old.seen.some((r) => r.path === '/api/parameter/')).toBe(false)
    } finally {
      await old.close()
    }
  })

  it('refuses a server older than the attachment API (v207)', async () => {
    const old = await startInventreeFake({ parts: 5, apiVersion: 180 })
    try {
      const error = await failure(pullAll(context({ on: old })))
      expect(error.kind).toBe('refused')
      expect(error.message).toContain('207')
    } finally {
      await old.close()
    }
  })

  it('fails a pull with `bad-answer` on a page of another shape, and `auth` without naming the token', async () => {
    fake.fail({ kind: 'status', status: 200, body: JSON.stringify({ count: 1, results: [{ pk: 'one', name: 3 }] }) }, 1)
    expect((await failure(pullAll(context()))).kind).toBe('bad-answer')
    const refused = await failure(pullAll(context({ token: WRONG_TOKEN })))
    expect(refused.kind).toBe('auth')
    expect(refused.message).toContain('Invalid token.')
    expect(refused.message).not.toContain(WRONG_TOKEN)
  })
})

describe('inventree fetch and search', () => {
  it('fetches a part by its key: the first MPN, its offers, parameters, category and datasheet', async () => {
    const part = await inventreeSource.fetch(` ${REF_PART.pk} `, context())
    const peer = expectedPeer(fake.db, REF_PART.pk, fake.url)
    expect(part).toMatchObject({
      ref: String(REF_PART.pk),
      manufacturer: peer.mpns[0]!.manufacturer,
      mpn: peer.mpns[0]!.partNumber,
      name: peer.name,
      description: peer.description,
      categoryHints: peer.categoryPath.slice(-10),
      parameters: peer.parameters,
      datasheetUrl: peer.attachments.find((a) => a.kind === 'datasheet')?.url ?? null,
      lifecycle: peer.status === 'obsolete' ? 'obsolete' : 'active',
      offers: peer.offers,
    })
  })

  it('answers null for a key that is not a part number, without asking', async () => {
    const before = fake.seen.length
    for (const ref of ['abc', '0', '-3', '12a', '1'.repeat(20)]) expect(await inventreeSource.fetch(ref, context())).toBeNull()
    expect(fake.seen).toHaveLength(before)
  })

  it('falls back to the IPN, then the name, for a part without manufacturer parts', async () => {
    const bare = byPk(fake.db.parts).filter((p) => !fake.db.manufacturerParts.some((m) => m.part === p.pk))
    const withIpn = bare.find((p) => p.IPN)!
    const withoutIpn = bare.find((p) => !p.IPN)!
    expect((await inventreeSource.fetch(String(withIpn.pk), context()))!.mpn).toBe(withIpn.IPN)
    expect((await inventreeSource.fetch(String(withoutIpn.pk), context()))!.mpn).toBe(withoutIpn.name)
  })

  it('searches with ?search= and gives the stock InvenTree holds', async () => {
    const found = await inventreeSource.search(REF_MPN, context(), 5)
    const candidate = found.find((c) => c.ref === String(REF_PART.pk))!
    const shelf = fake.db.stockItems.filter((s) => s.part === REF_PART.pk && s.in_stock).reduce((sum, s) => sum + s.quantity, 0)
    expect(candidate).toMatchObject({ mpn: REF_MPN, stock: Math.floor(shelf) })
    expect(fake.seen.filter((r) => r.path === '/api/part/').at(-1)!.query.get('search')).toBe(REF_MPN)
  })
})

describe('inventree config and words', () => {
  it('takes the server with or without /api, and refuses what it does not know', async () => {
    expect(inventreeSource.configSchema.safeParse({ baseUrl: 'https://inv.example.com' }).success).toBe(false)
    expect(inventreeSource.configSchema.safeParse({ baseUrl: 'https://inv.example.com', token: 't', extra: 1 }).success).toBe(false)
    expect(inventreeSource.secretFields).toEqual(['token'])
    expect(inventreeSource.limits).toEqual({ requestsPerMinute: 600, requestsPerDay: null })
    const ctx = { ...context(), config: { baseUrl: `${fake.url}/api/`, token: INVENTREE_FAKE_TOKEN } }
    expect((await inventreeSource.fetch(String(REF_PART.pk), ctx))!.ref).toBe(String(REF_PART.pk))
  })

  it.each([
    [['smd'], 'resistor, smd, 0603', ['smd', 'resistor', '0603']],
    [[], 'opamp dual', ['opamp', 'dual']],
    [[], 'mlcc; x7r; 16 V', ['mlcc', 'x7r', '16 V']],
    [['SMD'], '  smd   power ', ['SMD', 'power']],
    [null, null, []],
  ] as const)('tags %j with keywords %j are %j', (tags, keywords, out) => {
    expect(inventreeTags(tags, keywords)).toEqual(out)
  })

  it.each([
    ['LM358_Datasheet.pdf', '', 'datasheet'],
    [null, 'Datenblatt', 'datasheet'],
    ['photo.JPG', '', 'image'],
    ['board.kicad_mod', '', 'cad'],
    ['notes.pdf', 'Schaltplan', 'document'],
    [null, '', 'other'],
  ] as const)('attachment %j (%j) is a %s', (file, comment, kind) => {
    expect(inventreeAttachmentKind(file, comment, 'https://example.com/files/x')).toBe(kind)
  })
})
