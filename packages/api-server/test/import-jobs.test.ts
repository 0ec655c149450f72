import { describe, expect, it } from 'vitest'
import { importJobs, SimulatedCrash } from '../src/imports/jobs'
import { useTestApi, type TestApi } from './harness'

const api = useTestApi()

const upload = (body: string, query = '') => api.call('POST', `/api/imports${query}`, { rawBody: body, headers: { 'content-type': 'text/csv' } })

/** A file of `n` parts with ipns IMP-00000…, in a category, with a parameter. */
function parts(n: number, describe = (i: number) => `part ${i}`): string {
  const rows = Array.from({ length: n }, (_, i) => `IMP-${String(i).padStart(5, '0')},Part ${i},${describe(i)},Resistors,${i}k`)
  return `ipn,Name,Description,Category,Resistance\n${rows.join('\n')}\n`
}

/** Polls the session until its job is done. */
async function settled(t: TestApi, id: string): Promise<any> {
  for (let i = 0; i < 1200; i++) {
    const res = await t.call('GET', `/api/imports/${id}`)
    expect(res.status, res.text).toBe(200)
    if (res.body.status !== 'planning' && res.body.status !== 'committing') return res.body
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`import ${id} did not settle`)
}

/** What the library holds, as people see it (not versions). */
async function library(t: TestApi): Promise<unknown[]> {
  const out: unknown[] = []
  let cursor: string | undefined
  do {
    const page = await t.storage.components.list({ limit: 500, sort: 'id', includeDeleted: true, cursor })
    out.push(...page.items.map((c) => ({ id: c.id, ipn: c.ipn, name: c.name, description: c.description, parameters: c.parameters, deletedAt: c.deletedAt })))
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return out
}

describe('imports of more than one chunk run as jobs', () => {
  it('a 3,000-row file: 202 planning with progress, pending with every row paged, committed by chunks with every count', async () => {
    const res = await upload(parts(3000), '?name=big.csv')
    expect(res.status, res.text).toBe(202)
    expect(res.headers.get('location')).toBe(`/api/imports/${res.body.id}`)
    expect(res.body).toMatchObject({ status: 'planning', rowCount: 3000, progress: { phase: 'planning', total: 3000 } })
    const planned = await settled(api, res.body.id)
    expect(planned).toMatchObject({ status: 'pending', progress: null, summary: { create: 3000, update: 0, unchanged: 0, invalid: 0 } })
    const seen: number[] = []
    let next: string | null = `/api/imports/${res.body.id}/rows?limit=1000`
    while (next) {
      const page: any = await api.call('GET', next)
      expect(page.status, page.text).toBe(200)
      expect(page.headers.get('x-total-count')).toBe('3000')
      seen.push(...page.body.map((r: { row: number; outcome: string }) => (expect(r.outcome).toBe('create'), r.row)))
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]?.replace(/^https?:\/\/[^/]+/, '') ?? null
    }
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => i + 2))

    const commit = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(commit.status, commit.text).toBe(202)
    expect(commit.body.status).toBe('committing')
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(409)
    const done = await settled(api, res.body.id)
    expect(done).toMatchObject({ status: 'committed', failure: null, result: { created: 3000, updated: 0, unchanged: 0 } })
    expect((await api.storage.components.list({ limit: 1, sort: 'id', includeDeleted: false })).total).toBe(3000)
    const last = await api.call('GET', `/api/imports/${res.body.id}/rows?limit=1&cursor=${encodeURIComponent(Buffer.from(JSON.stringify(['row', 3000])).toString('base64url'))}`)
    expect(last.body).toEqual([expect.objectContaining({ row: 3001, outcome: 'create', ipn: 'IMP-02999', componentId: expect.stringMatching(/^cmp_/) })])
    expect(last.body[0]).not.toHaveProperty('undo')
    expect((await api.call('GET', '/api/components/by-ipn/IMP-02999')).body).toMatchObject({ name: 'Part 2999', parameters: [{ type: 'Resistance', value: '2999k' }] })
  }, 120_000)

  it('a chunk that fails undoes the chunks before it: the library is as it was, the session failed with the reason', async () => {
    // Parts the file updates, and one it will find taken mid-commit.
    await api.ok('POST', '/api/components', { ipn: 'IMP-00010', name: 'Part 10', description: 'before' }, 201)
    const before = await library(api)
    const res = await upload(parts(1600))
    await settled(api, res.body.id)
    importJobs(api.storage).hooks.afterChunk = async (_id, chunk) => {
      // Another request creates an ipn the file creates in a later chunk.
      if (chunk === 1) await api.storage.components.create({ ipn: 'IMP-01500', name: 'taken meanwhile', status: 'draft', tags: [], parameters: [], mpns: [] } as never)
    }
    try {
      expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(202)
      const failed = await settled(api, res.body.id)
      expect(failed.status).toBe('failed')
      expect(failed.failure).toMatch(/nothing of it was kept: row 1502: .*IMP-01500/)
      const after = (await library(api)).filter((c: any) => c.ipn !== 'IMP-01500')
      expect(after).toEqual(before)
      const rows = await api.call('GET', `/api/imports/${res.body.id}/rows?limit=3`)
      expect(rows.body.map((r: any) => [r.outcome, r.componentId])).toEqual([['create', null], ['create', null], ['create', null]])
    } finally {
      importJobs(api.storage).hooks.afterChunk = undefined
    }
  }, 120_000)

  it('a server stopped mid-commit: at start the applied chunks are undone and the session says so; committed again, it lands whole', async () => {
    const res = await upload(parts(1600))
    await settled(api, res.body.id)
    const jobs = importJobs(api.storage)
    jobs.hooks.afterChunk = (_id, chunk) => {
      if (chunk === 1) throw new SimulatedCrash('kill -9')
    }
    await api.call('POST', `/api/imports/${res.body.id}/commit`)
    await jobs.idle()
    jobs.hooks.afterChunk = undefined
    // As the process died: chunks applied, the session still committing.
    expect((await api.call('GET', `/api/imports/${res.body.id}`)).body).toMatchObject({ status: 'committing', progress: { phase: 'committing' } })
    expect((await api.storage.components.list({ limit: 1, sort: 'id', includeDeleted: true })).total).toBe(200)

    await jobs.resumeInterrupted()
    const undone = await settled(api, res.body.id)
    expect(undone).toMatchObject({ status: 'failed', result: null, failure: expect.stringMatching(/server stopped during the commit/) })
    expect((await api.storage.components.list({ limit: 1, sort: 'id', includeDeleted: true })).total).toBe(0)

    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(202)
    expect(await settled(api, res.body.id)).toMatchObject({ status: 'committed', result: { created: 1600 } })
  }, 120_000)

  it('a large session cannot be deleted, changed or listed while its job runs (409), and is replanned as a job when changed', async () => {
    const res = await upload(parts(1500))
    const busy = await api.call('DELETE', `/api/imports/${res.body.id}`)
    if ((await api.call('GET', `/api/imports/${res.body.id}`)).body.status === 'planning') expect(busy.status).toBe(409)
    const pending = await settled(api, res.body.id)
    const patched = await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { mapping: { Resistance: 'ignore' } }, headers: { 'if-match': `"${pending.version}"` } })
    expect(patched.status, patched.text).toBe(202)
    expect(patched.body.status).toBe('planning')
    expect(await settled(api, res.body.id)).toMatchObject({ status: 'pending', summary: { create: 1500 }, mapping: { Resistance: 'ignore' } })
    expect((await api.call('DELETE', `/api/imports/${res.body.id}`)).status).toBe(204)
    expect(await api.storage.importRows.count(res.body.id)).toBe(0)
  }, 120_000)
})

describe('mapping warnings', () => {
  it('a Part Number beside an MPN is proposed as the ipn; a file without names says they become MPNs', async () => {
    const res = await upload('Part Number,MPN,Manufacturer\nINT-1,RC0603FR-0710KL,Yageo\n')
    expect(res.status, res.text).toBe(201)
    expect(res.body.mapping).toEqual({ 'Part Number': 'ipn', MPN: 'partNumber', Manufacturer: 'manufacturer' })
    expect(res.body.warnings).toEqual([{ column: null, message: expect.stringMatching(/no column gives names: each part is named after its MPN \("MPN"\)/) }])
  })

  it('two columns feeding one target are named', async () => {
    const res = await upload('Name,Title,Part Number,MPN 2\nA,B,X-1,X-2\n')
    expect(res.body.warnings).toEqual([
      { column: 'Title', message: expect.stringMatching(/"Name" and "Title" both give the name/) },
      { column: 'MPN 2', message: expect.stringMatching(/"Part Number" and "MPN 2" both give an MPN, and the file has no manufacturer column/) },
    ])
    const fixed = await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { mapping: { Title: 'description', 'MPN 2': 'ignore' } }, headers: { 'if-match': `"${res.body.version}"` } })
    expect(fixed.status, fixed.text).toBe(200)
    expect(fixed.body.warnings).toEqual([])
  })

  it('a Value column becomes the value parameter of the row\'s category; without one it stays Value', async () => {
    const type = await api.storage.parameterTypes.create({ name: 'Resistance', kind: 'text', unit: 'Ω' })
    const category = await api.storage.categories.create({ name: 'Resistors' })
    await api.storage.categories.setTemplates(category.id, [{ parameterType: type.id, isValue: true }])
    const res = await upload('Name,Category,Value\nR 10k,Resistors,10k\nC 100n,Capacitors,100n\n')
    expect(res.status, res.text).toBe(201)
    expect(res.body.preview.map((p: any) => [p.input.name, p.input.parameters])).toEqual([
      ['R 10k', [{ type: 'Resistance', value: '10k' }]],
      ['C 100n', [{ type: 'Value', value: '100n' }]],
    ])
    expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(200)
    expect((await api.storage.components.list({ limit: 5, sort: 'id', includeDeleted: false, q: 'R 10k' })).items[0]?.parameters).toEqual([{ type: 'Resistance', value: '10k' }])
  })
})
