import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { describe, expect, it, vi } from 'vitest'
import { createApp } from '../src/app'
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
    expect(res.body).toMatchObject({ status: 'planning', rowCount: 3000, progress: { phase: 'reading', total: 3000 } })
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

  it('a large plan with invalid rows: the commit is refused with the 400 of a small one, before any job, the session left pending', async () => {
    const res = await upload(parts(1500).replace('IMP-00007,Part 7,', 'IMP-00007,,').replace('IMP-01400,Part 1400,', 'IMP-01400,,'))
    const planned = await settled(api, res.body.id)
    expect(planned).toMatchObject({ status: 'pending', summary: { invalid: 2 } })
    const commit = await api.call('POST', `/api/imports/${res.body.id}/commit`)
    expect(commit.status, commit.text).toBe(400)
    expect(commit.body.errors.map((e: { path: string }) => e.path)).toEqual([expect.stringMatching(/^rows\[9\]\./), expect.stringMatching(/^rows\[1402\]\./)])
    expect((await api.call('GET', `/api/imports/${res.body.id}`)).body).toMatchObject({ status: 'pending', version: planned.version, progress: null, failure: null })
    expect((await api.storage.components.list({ limit: 1, sort: 'id', includeDeleted: true })).total).toBe(0)
  }, 60_000)

  it('storing or planning a large file that fails on a storage error leaves the session failed with the reason', async () => {
    const append = api.storage.importRows.append
    let calls = 0
    const spy = vi.spyOn(api.storage.importRows, 'append').mockImplementation(async (...args) => {
      if (++calls === 2) throw new Error('disk full')
      return append.apply(api.storage.importRows, args)
    })
    try {
      const res = await upload(parts(2500))
      expect(res.status, res.text).toBe(202)
      const failed = await settled(api, res.body.id)
      expect(failed).toMatchObject({ status: 'failed', progress: null, failure: expect.stringMatching(/storing the file failed: disk full/) })
      // Part of a file is not the file: it cannot be changed or committed, only deleted.
      expect((await api.call('POST', `/api/imports/${res.body.id}/commit`)).status).toBe(409)
      expect((await api.call('PATCH', `/api/imports/${res.body.id}`, { body: { upsertKey: 'name' }, headers: { 'if-match': `"${failed.version}"` } })).status).toBe(409)
      expect((await api.call('DELETE', `/api/imports/${res.body.id}`)).status).toBe(204)
    } finally {
      spy.mockRestore()
    }
    const res = await upload(parts(1500))
    const save = vi.spyOn(api.storage, 'transaction').mockRejectedValue(new Error('connection lost'))
    try {
      expect(await settled(api, res.body.id)).toMatchObject({ status: 'failed', progress: null, failure: expect.stringMatching(/planning failed: connection lost/) })
    } finally {
      save.mockRestore()
    }
  }, 60_000)

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

/** Two servers' apps over one library: two pools on one PostgreSQL schema. */
async function _twoServers(): Promise<{ one: Storage; two: Storage; call: (storage: Storage, method: string, path: string, body?: string) => Promise<any>; close: () => Promise<void> }> {
  const url = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const schema = `complib_api_${randomBytes(6).toString('hex')}`
  const one = await createPostgresStorage({ url, schema, poolSize: 2 })
  const two = await createPostgresStorage({ url, schema, poolSize: 2 })
  const apps = new Map<Storage, ReturnType<typeof createApp>>([one, two].map((s) => [s, createApp({ storage: s, log: () => {} })]))
  return {
    one,
    two,
    call: async (storage, method, path, body) => {
      const res = await apps.get(storage)!.fetch(new Request(`http://127.0.0.1${path}`, { method, body, headers: { 'content-type': 'text/csv' } }))
      return { status: res.status, body: await res.json() }
    },
    close: async () => {
      await importJobs(one).stop()
      await importJobs(two).stop()
      await two.close()
      await one.dropSchema()
    },
  }
}

describe.skipIf(process.env.COMPLIB_TEST_STORAGE !== 'postgres')('several servers on one PostgreSQL', () => {
  it('a server starting leaves a live server\'s commit alone; a dead server\'s is undone once its heartbeat is older than the lease, without a restart', async () => {
    const { one, two, call, close } = await _twoServers()
    try {
      const settle = async (storage: Storage, id: string) => {
        for (let i = 0; i < 400; i++) {
          const s = (await call(storage, 'GET', `/api/imports/${id}`)).body
          if (s.status !== 'planning' && s.status !== 'committing') return s
          await new Promise((r) => setTimeout(r, 50))
        }
        throw new Error(`import ${id} did not settle`)
      }
      importJobs(one).settings.leaseMs = 1500
      importJobs(two).settings.leaseMs = 1500
      const first = (await call(one, 'POST', '/api/imports', parts(1100))).body
      await settle(one, first.id)
      // The second server starts while the first is between two chunks of its commit.
      importJobs(one).hooks.afterChunk = async (_id, chunk) => {
        if (chunk === 1) await importJobs(two).resumeInterrupted()
      }
      expect((await call(one, 'POST', `/api/imports/${first.id}/commit`)).status).toBe(202)
      expect(await settle(one, first.id)).toMatchObject({ status: 'committed', failure: null, result: { created: 1100 } })
      expect((await one.components.listIds({ limit: 5000, sort: 'id', includeDeleted: true })).items).toHaveLength(1100)

      // The first server dies mid-commit: the second, already running, undoes it after the lease.
      const second = (await call(one, 'POST', '/api/imports', parts(1100).replaceAll('IMP-', 'NEW-'))).body
      await settle(one, second.id)
      importJobs(one).hooks.afterChunk = (_id, chunk) => {
        if (chunk === 1) throw new SimulatedCrash('kill -9')
      }
      await call(one, 'POST', `/api/imports/${second.id}/commit`)
      await importJobs(one).idle()
      expect((await call(two, 'GET', `/api/imports/${second.id}`)).body.status).toBe('committing')
      expect(await settle(two, second.id)).toMatchObject({ status: 'failed', failure: expect.stringMatching(/server stopped during the commit/) })
      expect((await one.components.listIds({ limit: 5000, sort: 'id', includeDeleted: true })).items).toHaveLength(1100)
    } finally {
      await close()
    }
  }, 60_000)
})

describe.skipIf(process.env.COMPLIB_TEST_STORAGE === 'postgres')('one server holds a SQLite folder', () => {
  it('at start, every committing session is undone, however fresh its heartbeat', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'complib-import-jobs-'))
    try {
      const before = await createSqliteStorage({ dir })
      const app = createApp({ storage: before, log: () => {} })
      const post = async (path: string, body?: string) => (await app.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', body, headers: { 'content-type': 'text/csv' } }))).json() as Promise<any>
      const session = await post('/api/imports', parts(1600))
      await importJobs(before).idle()
      importJobs(before).hooks.afterChunk = (_id, chunk) => {
        if (chunk === 1) throw new SimulatedCrash('kill -9')
      }
      await post(`/api/imports/${session.id}/commit`)
      await importJobs(before).idle()
      await importJobs(before).stop()
      await before.close()

      const after = await createSqliteStorage({ dir })
      try {
        await importJobs(after).resumeInterrupted()
        await importJobs(after).idle()
        expect(await after.imports.get(session.id)).toMatchObject({ status: 'failed', data: expect.objectContaining({ failure: expect.stringMatching(/server stopped during the commit/) }) })
        expect((await after.components.list({ limit: 1, sort: 'id', includeDeleted: true })).total).toBe(0)
      } finally {
        await importJobs(after).stop()
        await after.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
