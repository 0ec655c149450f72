import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

/**
 * What KiCad's HTTP library client does with our answers, written from its
 * source (common/http_lib/http_lib_connection.cpp: ValidateHTTPLibraryEndpoints,
 * syncCategories, SelectAll, SelectOne, boolFromString; eeschema's
 * sch_io_http_lib.cpp: loadSymbolFromPart). nlohmann::json's `std::string x =
 * j.at("…")` throws on anything but a JSON string, so every read value must be
 * one; LIB_ID::Parse splits `symbolIdStr` at the first `:`.
 *
 * The listing path (SelectAll, setPartExtendedData): an item with a `fields`
 * object is taken as the whole part (detailsLoaded) and kept in the part
 * cache, so SelectOne does not ask for it until timeout_parts_seconds pass;
 * a field is skipped unless its `value` is a string. KiCad's retriever
 * (makeDefaultRetriever, common/kicad_curl/kicad_curl_easy.cpp) sends Accept
 * and Authorization only, and checkServerResponse takes nothing but a 200:
 * it never sends If-None-Match, so a 304 reaches only clients that ask.
 */
const KICAD_TRUE = ['true', 'yes', 'y', '1']
const KICAD_FALSE = ['false', 'no', 'n', '0']
const kicadBool = (v: unknown) => typeof v === 'string' && [...KICAD_TRUE, ...KICAD_FALSE].includes(v.toLowerCase())

let api: TestApi
beforeEach(async () => {
  api = await createTestApi()
})
afterEach(async () => {
  await api.close()
  delete process.env.COMPLIB_KICAD_HIDE_OBSOLETE
})

async function library() {
  const sym = await api.ok('POST', '/api/symbols', { name: 'Device:R' }, 201)
  const q = await api.ok('POST', '/api/symbols', { name: 'Q_NMOS_GSD', library: 'Device' }, 201)
  const fp1 = await api.ok('POST', '/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD' }, 201)
  const fp2 = await api.ok('POST', '/api/footprints', { name: 'R_0805_2012Metric', library: 'Resistor_SMD' }, 201)
  const r = await api.ok(
    'POST',
    '/api/components',
    {
      name: 'R 10k',
      ipn: 'RES-1',
      category: 'Passives/Resistors/Thick film',
      tags: ['smd', 'high voltage'],
      parameters: [
        { type: 'Tolerance', value: '1%' },
        { type: 'Resistance', value: '10k', unit: 'Ω' },
      ],
      mpns: [
        { manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' },
        { manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' },
      ],
      symbols: [sym.id],
      footprints: [fp1.id, fp2.id],
    },
    201,
  )
  const fet = await api.ok('POST', '/api/components', { name: '2N7002', ipn: 'Q-1', category: 'Discretes/Transistors', parameters: [{ type: 'Channel', value: 'N-MOSFET' }], symbols: [q.id] }, 201)
  const old = await api.ok('POST', '/api/components', { name: 'LM358 old', ipn: 'U-OLD', category: 'Discretes/Transistors' }, 201)
  await api.ok('PATCH', `/api/components/${old.id}`, { status: 'obsolete' })
  return { r, fet, old }
}

describe('KiCad HTTP library conformance', () => {
  it('answers every read KiCad makes with the types its client requires', async () => {
    const { r } = await library()
    const root = await api.ok('GET', '/api/kicad/v1/')
    expect(Object.keys(root).sort()).toEqual(['categories', 'parts'])
    const categories = await api.ok('GET', '/api/kicad/v1/categories.json')
    expect(categories.map((c: { name: string }) => c.name)).toEqual(['Discretes/Transistors', 'Passives/Resistors/Thick film'])
    for (const category of categories) {
      expect([typeof category.id, typeof category.name, typeof category.description]).toEqual(['string', 'string', 'string'])
      const parts = await api.ok('GET', `/api/kicad/v1/parts/category/${category.id}.json`)
      for (const summary of parts) {
        expect([typeof summary.id, typeof summary.name]).toEqual(['string', 'string'])
        const part = await api.ok('GET', `/api/kicad/v1/parts/${summary.id}.json`)
        expect(typeof part.id).toBe('string')
        // Required key; empty means "no symbol" (loadSymbolFromPart makes an empty one), anything else must parse as a LIB_ID.
        expect(part.symbolIdStr).toMatch(/^$|^[^:]+:.+$/)
        for (const flag of ['exclude_from_bom', 'exclude_from_board', 'exclude_from_sim']) expect(kicadBool(part[flag]), flag).toBe(true)
        for (const [name, field] of Object.entries(part.fields as Record<string, { value: unknown; visible?: unknown }>)) {
          expect(typeof field.value, name).toBe('string')
          if ('visible' in field) expect(kicadBool(field.visible), name).toBe(true)
        }
      }
    }
    const part = await api.ok('GET', `/api/kicad/v1/parts/${r.id}.json`)
    expect(part.symbolIdStr).toBe('Device:R')
    expect(part.fields.footprint.value).toBe('Resistor_SMD:R_0603_1608Metric;Resistor_SMD:R_0805_2012Metric')
    expect(part.fields.keywords.value).toBe('smd, high voltage')
    expect(part.fields).toMatchObject({ MPN: { value: 'RC0603FR-0710KL' }, 'MPN 2': { value: 'CRCW060310K0FKEA' }, 'Manufacturer 2': { value: 'Vishay' } })
  })

  it('the Value of a passive is its value-like parameter, of anything else its name (2N7002 showed "N-MOSFET")', async () => {
    const { r, fet } = await library()
    expect((await api.ok('GET', `/api/kicad/v1/parts/${r.id}.json`)).fields.value.value).toBe('10kΩ')
    expect((await api.ok('GET', `/api/kicad/v1/parts/${fet.id}.json`)).fields.value.value).toBe('2N7002')
    await api.ok('PUT', `/api/components/${fet.id}/parameters`, [{ type: 'Value', value: '2N7002 60V' }])
    expect((await api.ok('GET', `/api/kicad/v1/parts/${fet.id}.json`)).fields.value.value).toBe('2N7002 60V')
  })

  it('each component’s explicit Value and exclusion flags reach KiCad as strings; a patch merges them', async () => {
    const { r, fet } = await library()
    const part = async (id: string) => await api.ok('GET', `/api/kicad/v1/parts/${id}.json`)
    expect(await part(r.id)).toMatchObject({ exclude_from_bom: 'False', exclude_from_board: 'False', exclude_from_sim: 'False' })
    const tp = await api.ok('POST', '/api/components', { name: 'Test point', ipn: 'TP-1', category: 'Mechanical', kicadValue: 'TP', excludeFromBom: true, excludeFromSim: true }, 201)
    expect(tp).toMatchObject({ kicadValue: 'TP', excludeFromBom: true, excludeFromBoard: false, excludeFromSim: true })
    expect(await part(tp.id)).toMatchObject({ exclude_from_bom: 'True', exclude_from_board: 'False', exclude_from_sim: 'True', fields: { value: { value: 'TP' } } })
    // A merge patch: the flags it does not name stay as they are.
    const patched = await api.ok('PATCH', `/api/components/${tp.id}`, { excludeFromBoard: true, excludeFromSim: false })
    expect(patched).toMatchObject({ kicadValue: 'TP', excludeFromBom: true, excludeFromBoard: true, excludeFromSim: false, version: 2 })
    expect(await part(tp.id)).toMatchObject({ exclude_from_bom: 'True', exclude_from_board: 'True', exclude_from_sim: 'False' })
    // The explicit value wins over a Value parameter and the passive rule; null brings the rule back.
    await api.ok('PATCH', `/api/components/${r.id}`, { kicadValue: '10k 1%' })
    expect((await part(r.id)).fields.value.value).toBe('10k 1%')
    await api.ok('PATCH', `/api/components/${r.id}`, { kicadValue: null })
    expect((await part(r.id)).fields.value.value).toBe('10kΩ')
    expect((await api.ok('GET', `/api/components/${fet.id}`)).kicadValue).toBeNull()
  })

  it('refuses a flag that is not a boolean and an empty KiCad value with a 400 naming the field', async () => {
    const { r } = await library()
    for (const [body, field] of [
      [{ excludeFromBom: 'True' }, 'body.excludeFromBom'],
      [{ excludeFromSim: 1 }, 'body.excludeFromSim'],
      [{ kicadValue: '  ' }, 'body.kicadValue'],
      [{ kicadValue: 'x'.repeat(201) }, 'body.kicadValue'],
    ] as const) {
      const res = await api.call('PATCH', `/api/components/${r.id}`, { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/)
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([field])
      const created = await api.call('POST', '/api/components', { body: { name: 'X', ...body } })
      expect(created.status).toBe(400)
    }
    expect((await api.ok('GET', `/api/components/${r.id}`)).version).toBe(1)
  })

  it('a link attachment’s datasheet is its own URL; an uploaded one is its capability link (decision 0639), which answers 200', async () => {
    const { r, fet } = await library()
    await api.ok('POST', '/api/attachments/from-url', { url: 'https://www.yageo.com/RC0603.pdf', name: 'RC0603.pdf', componentId: r.id, kind: 'datasheet' }, 201)
    expect((await api.ok('GET', `/api/kicad/v1/parts/${r.id}.json`)).fields.datasheet.value).toBe('https://www.yageo.com/RC0603.pdf')
    const up = await api.call('POST', `/api/attachments?componentId=${fet.id}&name=2n7002.pdf&kind=datasheet`, { rawBody: '%PDF-1.4 x', headers: { 'content-type': 'application/pdf' } })
    expect(up.status, up.text).toBe(201)
    const url = (await api.ok('GET', `/api/kicad/v1/parts/${fet.id}.json`)).fields.datasheet.value as string
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1\/api\/attachments\/att_\w+\/datasheet\/[\w-]{43}$/)
    const download = await api.call('GET', new URL(url).pathname)
    expect(download.status).toBe(200)
    expect(download.text).toBe('%PDF-1.4 x')
  })

  it('a category listing carries every part as the part route gives it, so KiCad 10 skips the part request', async () => {
    const { r, fet, old } = await library()
    for (const category of await api.ok('GET', '/api/kicad/v1/categories.json')) {
      const listing = await api.ok('GET', `/api/kicad/v1/parts/category/${category.id}.json`)
      for (const item of listing) {
        // setPartExtendedData: `fields` an object, each value a string, so detailsLoaded is true.
        expect(typeof item.fields).toBe('object')
        expect(Array.isArray(item.fields)).toBe(false)
        for (const field of Object.values(item.fields as Record<string, { value: unknown }>)) expect(typeof field.value).toBe('string')
        expect(typeof item.description).toBe('string')
        const { description, ...part } = item
        expect(part).toEqual(await api.ok('GET', `/api/kicad/v1/parts/${item.id}.json`))
      }
    }
    const transistors = (await api.ok('GET', '/api/kicad/v1/categories.json')).find((c: { name: string }) => c.name === 'Discretes/Transistors')
    expect((await api.ok('GET', `/api/kicad/v1/parts/category/${transistors.id}.json`)).map((p: { id: string }) => p.id)).toEqual([fet.id, old.id])
    expect(r.id).toMatch(/^cmp_/)
  })

  it('answers If-None-Match with 304 and the max-age from the settings; KiCad itself, which sends none, always gets a 200', async () => {
    await library()
    const first = await api.call('GET', '/api/kicad/v1/categories.json', { headers: { accept: 'application/json' } })
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('private, max-age=60')
    const tag = first.headers.get('etag')!
    expect((await api.call('GET', '/api/kicad/v1/categories.json', { headers: { 'if-none-match': tag } })).status).toBe(304)
    await api.ok('PATCH', '/api/settings', { kicad: { cacheMaxAge: 3600 } })
    const again = await api.call('GET', '/api/kicad/v1/categories.json', { headers: { 'if-none-match': tag } })
    expect(again.status).toBe(200)
    expect(again.headers.get('cache-control')).toBe('private, max-age=3600')
  })

  it('obsolete parts are hidden by the hideObsolete setting, and still by COMPLIB_KICAD_HIDE_OBSOLETE; a placed one still resolves', async () => {
    const { old } = await library()
    const transistors = async () => {
      const categories = await api.ok('GET', '/api/kicad/v1/categories.json')
      const category = categories.find((c: { name: string }) => c.name === 'Discretes/Transistors')
      return { category, parts: (await api.ok('GET', `/api/kicad/v1/parts/category/${category.id}.json`)).map((p: { name: string }) => p.name) }
    }
    expect((await transistors()).parts).toEqual(['Q-1', 'U-OLD'])
    await api.ok('PATCH', '/api/settings', { kicad: { hideObsolete: true } })
    const hidden = await transistors()
    expect(hidden.parts).toEqual(['Q-1'])
    expect(hidden.category.description).toBe('1 part')
    expect((await api.call('GET', `/api/kicad/v1/parts/${old.id}.json`)).status).toBe(200)
    await api.ok('PATCH', '/api/settings', { kicad: { hideObsolete: false } })
    expect((await transistors()).parts).toEqual(['Q-1', 'U-OLD'])
  })

  it('categoryDepth lists the parts of deeper categories under their ancestor at that depth', async () => {
    const { r } = await library()
    await api.ok('POST', '/api/components', { name: 'R 1k', ipn: 'RES-2', category: 'Passives/Resistors' }, 201)
    await api.ok('POST', '/api/components', { name: 'C 100n', ipn: 'CAP-1', category: 'Passives' }, 201)
    const names = async () => (await api.ok('GET', '/api/kicad/v1/categories.json')).map((c: { name: string; description: string }) => `${c.name}: ${c.description}`)
    expect(await names()).toEqual(['Discretes/Transistors: 2 parts', 'Passives: 1 part', 'Passives/Resistors: 1 part', 'Passives/Resistors/Thick film: 1 part'])
    const deep = (await api.ok('GET', '/api/kicad/v1/categories.json')).find((c: { name: string }) => c.name === 'Passives/Resistors/Thick film')
    await api.ok('PATCH', '/api/settings', { kicad: { categoryDepth: 1 } })
    expect(await names()).toEqual(['Discretes: 2 parts', 'Passives: 3 parts'])
    const passives = (await api.ok('GET', '/api/kicad/v1/categories.json')).find((c: { name: string }) => c.name === 'Passives')
    const listed = await api.ok('GET', `/api/kicad/v1/parts/category/${passives.id}.json`)
    expect(listed.map((p: { name: string }) => p.name)).toEqual(['CAP-1', 'RES-1', 'RES-2'])
    expect(listed.find((p: { id: string }) => p.id === r.id).fields.footprint.value).toBe('Resistor_SMD:R_0603_1608Metric;Resistor_SMD:R_0805_2012Metric')
    // A category deeper than the depth is not one of KiCad's: its listing is a 404.
    expect((await api.call('GET', `/api/kicad/v1/parts/category/${deep.id}.json`)).status).toBe(404)
    await api.ok('PATCH', '/api/settings', { kicad: { categoryDepth: 2 } })
    expect(await names()).toEqual(['Discretes/Transistors: 2 parts', 'Passives: 1 part', 'Passives/Resistors: 2 parts'])
  })

  it('obsolete parts are listed unless COMPLIB_KICAD_HIDE_OBSOLETE is set; a placed one still resolves', async () => {
    const { old } = await library()
    const transistors = async () => {
      const categories = await api.ok('GET', '/api/kicad/v1/categories.json')
      const category = categories.find((c: { name: string }) => c.name === 'Discretes/Transistors')
      return { category, parts: (await api.ok('GET', `/api/kicad/v1/parts/category/${category.id}.json`)).map((p: { name: string }) => p.name) }
    }
    const listed = await transistors()
    expect(listed.parts).toEqual(['Q-1', 'U-OLD'])
    expect(listed.category.description).toBe('2 parts')
    process.env.COMPLIB_KICAD_HIDE_OBSOLETE = '1'
    const hidden = await transistors()
    expect(hidden.parts).toEqual(['Q-1'])
    expect(hidden.category.description).toBe('1 part')
    expect((await api.call('GET', `/api/kicad/v1/parts/${old.id}.json`)).status).toBe(200)
  })

  it('a filter by category takes in its descendants', async () => {
    await library()
    expect((await api.ok('GET', '/api/components?category=Passives')).map((c: { ipn: string }) => c.ipn)).toEqual(['RES-1'])
    expect((await api.ok('GET', '/api/components?category=passives/resistors')).map((c: { ipn: string }) => c.ipn)).toEqual(['RES-1'])
    expect(await api.ok('GET', '/api/components?category=Pass')).toEqual([])
  })
})
