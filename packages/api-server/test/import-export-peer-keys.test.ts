import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { importJobs } from '../src/imports/jobs'
import { useTestApi, type TestApi } from './harness'

// Peer exports linked by the peer's own keys (decision 0640): the part export keeps each part's
// key; the manufacturer-part, supplier-part and company exports name parts and companies only by key.

const api = useTestApi()

const fixture = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url), 'utf8')
const upload = (body: string, query = '') => api.call('POST', `/api/imports${query}`, { rawBody: body, headers: { 'content-type': 'text/csv' } })

/** Uploads a file as it is (no query flags) and commits it; the session as previewed. */
async function importAsIs(body: string, check?: (session: any) => void): Promise<any> {
  const session = await upload(body)
  expect(session.status, session.text).toBe(201)
  expect(session.body.errors).toEqual([])
  check?.(session.body)
  const committed = await api.call('POST', `/api/imports/${session.body.id}/commit`)
  expect(committed.status, committed.text).toBe(200)
  return session.body
}

/** Every live component, by name, with its MPNs as `manufacturer|partNumber`, sorted. */
async function library(t: TestApi): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const c of await t.ok('GET', '/api/components?limit=1000')) out[c.name] = c.mpns.map((m: { manufacturer: string; partNumber: string }) => `${m.manufacturer}|${m.partNumber}`).sort()
  return out
}

/** The InvenTree fixtures' library once every file is in: each part with its manufacturers' names. */
const EXPECTED = {
  'R 10k 0603': ['Vishay|CRCW060310K0FKEA', 'Yageo|RC0603FR-0710KL'],
  'R 4k7 0603': ['Vishay|CRCW06034K70FKEA', 'Yageo|RC0603FR-074K7L'],
  'C 100n 0603': ['Murata|GRM188R71H104KA93D', 'Samsung Electro-Mechanics|CL10B104KB8NNNC'],
  'C 10u 0805': ['Murata|GRM21BR61C106KE15L', 'Samsung Electro-Mechanics|CL21A106KOQNNNE'],
  '2N7002': ['Nexperia|2N7002,215', 'onsemi|2N7002LT1G'],
  BC547: ['onsemi|BC547BTA'],
  LM358: ['STMicroelectronics|LM358DT', 'Texas Instruments|LM358DR'],
  NE555: ['STMicroelectronics|NE555D', 'Texas Instruments|NE555DR'],
}

const ATTACHED = ['inventree-manufacturer-parts.csv', 'inventree-supplier-parts.csv', 'inventree-companies.csv']

describe('InvenTree exports linked by InvenTree keys', () => {
  for (const order of [ATTACHED, [...ATTACHED].reverse(), [ATTACHED[1]!, ATTACHED[2]!, ATTACHED[0]!]]) {
    it(`the part export, then ${order.join(', ')}: exactly the peer's parts, every MPN on its part under its manufacturer's name`, async () => {
      await importAsIs(fixture('inventree-parts.csv'), (s) => expect(s).toMatchObject({ preset: 'inventree-parts', source: 'inventree', summary: { create: 8, invalid: 0 } }))
      for (const name of order) {
        await importAsIs(fixture(name), (s) => {
          expect(s.source).toBe('inventree')
          // Nothing created by a file attached to parts, or by the company export.
          expect(s.summary.create).toBe(0)
          expect(s.warnings).toEqual([])
        })
      }
      expect(await library(api)).toEqual(EXPECTED)
      // The placeholders of companies not known yet were renamed wherever they were carried.
      expect(JSON.stringify(await library(api))).not.toMatch(/InvenTree company/)
    })
  }

  it('keeps a placeholder for a company not known yet, and the company export renames it (shown as updates before commit)', async () => {
    await importAsIs(fixture('inventree-parts.csv'))
    await importAsIs(fixture('inventree-manufacturer-parts.csv'))
    expect((await library(api))['BC547']).toEqual(['InvenTree company 5|BC547BTA'])
    const companies = await upload(fixture('inventree-companies.csv'))
    expect(companies.status, companies.text).toBe(201)
    // Every part carries a placeholder: each is an update; the companies none carries (the distributors) change nothing.
    expect(companies.body.summary).toMatchObject({ create: 0, update: 8, invalid: 0 })
    const rows = await api.ok('GET', `/api/imports/${companies.body.id}/rows?limit=100`)
    expect(rows.find((r: { row: number }) => r.row === 10)).toMatchObject({ outcome: 'unchanged', name: 'DigiKey', componentId: null })
    expect(rows.find((r: { name: string }) => r.name === 'BC547')).toMatchObject({ outcome: 'update', changes: [{ field: 'mpns', after: [{ manufacturer: 'onsemi', partNumber: 'BC547BTA' }] }] })
    await api.ok('POST', `/api/imports/${companies.body.id}/commit`)
    expect(await library(api)).toEqual(EXPECTED)
  })

  it('refuses a manufacturer-part row naming a part key never imported, naming the column; the commit changes nothing', async () => {
    await importAsIs(fixture('inventree-parts.csv'))
    const before = await library(api)
    const csv = 'ID,Base Part,Manufacturer,Description,MPN,Link,Barcode Hash,Notes\n1,101,1,,RC0603FR-0710KL,,,\n2,999,2,,CRCW0603999,,,\n'
    const session = await upload(csv)
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary).toMatchObject({ create: 0, update: 1, invalid: 1 })
    expect(session.body.errors).toEqual([{ row: 3, path: 'partKey', message: 'column "Base Part": no part with InvenTree key 999 was imported; import the part export first' }])
    const commit = await api.call('POST', `/api/imports/${session.body.id}/commit`)
    expect(commit.status, commit.text).toBe(400)
    expect(commit.headers.get('content-type')).toMatch(/problem\+json/)
    expect(await library(api)).toEqual(before)
  })

  it('updates on a second import of the part export, by key, IPN or not: no duplicates', async () => {
    await importAsIs(fixture('inventree-parts.csv'))
    const ids = Object.fromEntries((await api.ok('GET', '/api/components?limit=100')).map((c: { name: string; id: string }) => [c.name, c.id]))
    // The same export after the part without an IPN was renamed in InvenTree.
    const again = await importAsIs(fixture('inventree-parts.csv').replace(',BC547,106,', ',BC547B,106,'), (s) => {
      expect(s.summary).toMatchObject({ create: 0, update: 1, unchanged: 7, invalid: 0 })
    })
    expect(await api.ok('GET', `/api/imports/${again.id}/rows?outcome=update`)).toMatchObject([{ row: 7, componentId: ids['BC547'], changes: [{ field: 'name', before: 'BC547', after: 'BC547B' }] }])
    const names = (await api.ok('GET', '/api/components?limit=100')).map((c: { name: string }) => c.name).sort()
    expect(names).toEqual(['2N7002', 'BC547B', 'C 100n 0603', 'C 10u 0805', 'LM358', 'NE555', 'R 10k 0603', 'R 4k7 0603'])
  })

  it("lists a component's references; an unknown component is a 404", async () => {
    await importAsIs(fixture('inventree-parts.csv'))
    const [r] = (await api.ok('GET', '/api/components?limit=100')).filter((c: { name: string }) => c.name === 'R 10k 0603')
    expect(await api.ok('GET', `/api/components/${r.id}/references`)).toEqual([{ source: 'inventree', key: '101' }])
    const made = await api.ok('POST', '/api/components', { name: 'hand made' }, 201)
    expect(await api.ok('GET', `/api/components/${made.id}/references`)).toEqual([])
    const missing = await api.call('GET', '/api/components/cmp_00000000000000000000000000/references')
    expect(missing.status).toBe(404)
  })

  it('flags, before commit, a spreadsheet whose part column holds only whole numbers (a peer file read without its source)', async () => {
    const csv = 'Part,Manufacturer name,MPN\n101,Yageo,RC0603FR-0710KL\n102,Yageo,RC0603FR-074K7L\n'
    const session = await upload(csv)
    expect(session.status, session.text).toBe(201)
    expect(session.body).toMatchObject({ preset: 'spreadsheet', source: null, summary: { create: 2 } })
    expect(session.body.warnings).toContainEqual({ column: 'Part', message: expect.stringMatching(/"Part" holds only whole numbers.*these 2 creates are probably wrong.*\?source=/) })
  })

  it('with ?source=, a spreadsheet keeps its key column as references', async () => {
    const csv = 'Key,Name\nA-1,Widget\n'
    const session = await upload(csv, '?source=erp')
    expect(session.body.source).toBe('erp')
    const patched = await api.call('PATCH', `/api/imports/${session.body.id}`, { body: { mapping: { Key: 'sourceKey' } }, headers: { 'if-match': `"${session.body.version}"` } })
    expect(patched.status, patched.text).toBe(200)
    await api.ok('POST', `/api/imports/${session.body.id}/commit`)
    const [widget] = await api.ok('GET', '/api/components?q=Widget')
    expect(await api.ok('GET', `/api/components/${widget.id}/references`)).toEqual([{ source: 'erp', key: 'A-1' }])
    const bad = await upload(csv, '?source=Not%20A%20Source')
    expect(bad.status).toBe(400)
    expect(bad.text).toMatch(/source/)
  })
})

describe('a large part export and its manufacturer parts, as jobs', () => {
  it('links 1,100 parts by key across two job commits, and a second import of the parts creates none', async () => {
    const n = 1100
    const header = 'ID,Name,IPN,Description,Active,Category Name'
    const parts = `${header}\n${Array.from({ length: n }, (_, i) => `${5000 + i},Part ${i},,bulk part ${i},True,Bulk`).join('\n')}\n`
    const mfr = `ID,Base Part,Manufacturer,MPN\n${Array.from({ length: n }, (_, i) => `${i + 1},${5000 + i},7,BULK-${i}`).join('\n')}\n`
    const first = await upload(parts)
    expect(first.status, first.text).toBe(202)
    expect(await settled(api, first.body.id)).toMatchObject({ status: 'pending', summary: { create: n, invalid: 0 } })
    expect((await api.call('POST', `/api/imports/${first.body.id}/commit`)).status).toBe(202)
    expect(await settled(api, first.body.id)).toMatchObject({ status: 'committed', result: { created: n } })

    const second = await upload(mfr)
    expect(second.status, second.text).toBe(202)
    expect(await settled(api, second.body.id)).toMatchObject({ status: 'pending', summary: { create: 0, update: n, invalid: 0 } })
    expect((await api.call('POST', `/api/imports/${second.body.id}/commit`)).status).toBe(202)
    expect(await settled(api, second.body.id)).toMatchObject({ status: 'committed', result: { created: 0, updated: n } })
    const [p] = await api.ok('GET', '/api/components?q=BULK-1099')
    expect(p).toMatchObject({ name: 'Part 1099', mpns: [{ manufacturer: 'InvenTree company 7', partNumber: 'BULK-1099' }] })

    const again = await upload(parts)
    expect(await settled(api, again.body.id)).toMatchObject({ status: 'pending', summary: { create: 0, invalid: 0 } })
  }, 120_000)
})

describe('a failed large commit', () => {
  it('takes back the references its applied chunks wrote, with their parts; committed again, every key is kept', async () => {
    const n = 1050
    const parts = `ID,Name,IPN,Active,Category Name\n${Array.from({ length: n }, (_, i) => `${7000 + i},Keyed ${i},,True,Bulk`).join('\n')}\n`
    const res = await upload(parts)
    expect(res.status, res.text).toBe(202)
    await settled(api, res.body.id)
    const jobs = importJobs(api.storage)
    jobs.hooks.afterChunk = (_id, chunk) => {
      if (chunk === 1) throw new Error('disk full')
    }
    try {
      expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(202)
      expect(await settled(api, res.body.id)).toMatchObject({ status: 'failed', failure: expect.stringMatching(/nothing of it was kept: disk full/) })
    } finally {
      jobs.hooks.afterChunk = undefined
    }
    const keys = Array.from({ length: n }, (_, i) => String(7000 + i))
    expect(await api.storage.externalRefs.lookup('inventree', 'part', keys)).toEqual([])
    expect((await api.storage.components.list({ limit: 1, sort: 'id', includeDeleted: true } as never)).total).toBe(0)
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(202)
    expect(await settled(api, res.body.id)).toMatchObject({ status: 'committed', result: { created: n } })
    expect((await api.storage.externalRefs.lookup('inventree', 'part', keys)).length).toBe(n)
  }, 120_000)
})

/** Polls the session until its job is done. */
async function settled(t: TestApi, id: string): Promise<any> {
  for (let i = 0; i < 2400; i++) {
    const res = await t.call('GET', `/api/imports/${id}`)
    expect(res.status, res.text).toBe(200)
    if (res.body.status !== 'planning' && res.body.status !== 'committing') return res.body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`import ${id} did not settle`)
}
