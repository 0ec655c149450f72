import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

// Identifiers compare as people read them (decisions 0420 and 0421).

const api = useTestApi()

const create = async (path: string, body: Record<string, unknown>) => {
  const res = await api.call('POST', path, { body })
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** A 409 problem naming `field` and the record `otherId`. */
const expectConflict = (res: { status: number; text: string; body: any; headers: Headers }, field: string, otherId: string) => {
  expect(res.status, res.text).toBe(409)
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect(res.body.code).toBe('CONFLICT')
  expect(res.body.errors).toContainEqual(expect.objectContaining({ path: field }))
  expect(res.body.detail).toContain(otherId)
}

const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u061c']

describe('identifiers compare as people read them', () => {
  it('a non-ASCII case variant of another component’s ipn is a 409, not a 5xx (ÀX-1 / àX-1, Kelvin sign)', async () => {
    const a = await create('/api/components', { name: 'A', ipn: 'àX-1' })
    const b = await create('/api/components', { name: 'B', ipn: 'ÀY-1' })
    // The patch that answered 500 "UNIQUE constraint failed": JavaScript and SQLite folded case differently.
    expectConflict(await api.call('PATCH', `/api/components/${b.id}`, { body: { ipn: 'ÀX-1' } }), 'body.ipn', a.id)
    const k = await create('/api/components', { name: 'K', ipn: 'KX-2' })
    const kelvin = await create('/api/components', { name: 'Kelvin', ipn: '\u212aY-2' })
    expectConflict(await api.call('PATCH', `/api/components/${kelvin.id}`, { body: { ipn: '\u212aX-2' } }), 'body.ipn', k.id)
    // Before, this create was accepted (SQLite's NOCASE folds ASCII only), and a later PATCH of
    // its ipn to `àx-1` skipped the check (JavaScript said "same ipn") and hit the index: a 500.
    expectConflict(await api.call('POST', '/api/components', { body: { name: 'C', ipn: 'Àx-1' } }), 'body.ipn', a.id)
    const bulk = await api.call('PATCH', '/api/bulk/components', { body: { items: [{ id: b.id, patch: { ipn: 'ÀX-1' } }] } })
    expect(bulk.status, bulk.text).toBe(409)
    expect(bulk.body.detail).toContain(a.id)
    // A component may change the case of its own ipn; the value is kept as typed.
    expect((await api.call('PATCH', `/api/components/${a.id}`, { body: { ipn: 'ÀX-1' } })).body.ipn).toBe('ÀX-1')
  })

  it('lookalike ipns collide: composed/decomposed É, full-width digits, Kelvin sign', async () => {
    const pairs: Array<[string, string]> = [
      ['\u00c9-1', 'E\u0301-1'],
      ['R-123', 'R-１２３'],
      ['KR-1', '\u212aR-1'],
    ]
    for (const [taken, lookalike] of pairs) {
      const first = await create('/api/components', { name: 'first', ipn: taken })
      expectConflict(await api.call('POST', '/api/components', { body: { name: 'second', ipn: lookalike } }), 'body.ipn', first.id)
      const bulk = await api.call('POST', '/api/bulk/components', { body: { items: [{ name: 'second', ipn: `${lookalike}-b` }, { name: 'third', ipn: `${taken}-B` }] } })
      expect(bulk.status, bulk.text).toBe(409)
      expect(bulk.body.errors[0].path).toBe('body.items[1].ipn')
      const found = await api.call('GET', `/api/components/by-ipn/${encodeURIComponent(lookalike)}`)
      expect(found.status, found.text).toBe(200)
      expect(found.body.id).toBe(first.id)
    }
    // Stored after NFC, as typed otherwise: a decomposed É comes back composed.
    const decomposed = await create('/api/components', { name: 'd', ipn: ' Re\u0301f-9 ' })
    expect(decomposed.ipn).toBe('R\u00e9f-9')
  })

  it('zero-width and bidi control characters in an ipn are a 400 naming body.ipn', async () => {
    for (const c of INVISIBLE) {
      const res = await api.call('POST', '/api/components', { body: { name: 'x', ipn: `R${c}-1` } })
      expect(res.status, `U+${c.codePointAt(0)!.toString(16)}: ${res.text}`).toBe(400)
      expect(res.body.errors).toContainEqual(expect.objectContaining({ path: 'body.ipn' }))
    }
    const a = await create('/api/components', { name: 'A', ipn: 'R-1' })
    const patch = await api.call('PATCH', `/api/components/${a.id}`, { body: { ipn: 'R-1\u202e' } })
    expect(patch.status).toBe(400)
    expect(patch.body.errors[0]).toMatchObject({ path: 'body.ipn', message: expect.stringContaining('U+202E') })
    const bulk = await api.call('POST', '/api/bulk/components', { body: { items: [{ name: 'x', ipn: 'R\u200b-2' }] } })
    expect(bulk.status).toBe(400)
    expect(bulk.body.errors[0].path).toBe('body.items[0].ipn')
    const path = await api.call('GET', `/api/components/by-ipn/${encodeURIComponent('R\u200b-1')}`)
    expect(path.status).toBe(400)
    expect(path.body.errors[0].path).toBe('path.ipn')
    expect((await api.call('GET', '/api/components')).body).toHaveLength(1)
  })

  it('tags and manufacturers collide the same way, and refuse invisible characters naming body.name', async () => {
    const tag = await create('/api/tags', { name: 'Résistor' })
    expectConflict(await api.call('POST', '/api/tags', { body: { name: 'RE\u0301SISTOR' } }), 'body.name', tag.id)
    const other = await create('/api/tags', { name: 'other' })
    expectConflict(await api.call('PATCH', `/api/tags/${other.id}`, { body: { name: 'résistor' } }), 'body.name', tag.id)
    const zw = await api.call('POST', '/api/tags', { body: { name: 'sm\u200bd' } })
    expect(zw.status).toBe(400)
    expect(zw.body.errors[0].path).toBe('body.name')
    const onComponent = await api.call('POST', '/api/components', { body: { name: 'x', tags: ['ok', 'sm\u2066d'] } })
    expect(onComponent.status).toBe(400)
    expect(onComponent.body.errors[0].path).toBe('body.tags[1]')

    const ti = await create('/api/manufacturers', { name: 'Texas Instruments', aliases: ['TI'] })
    expectConflict(await api.call('POST', '/api/manufacturers', { body: { name: 'ＴＥＸＡＳ instruments' } }), 'body.name', ti.id)
    const bidi = await api.call('POST', '/api/manufacturers', { body: { name: 'Acme\u202e' } })
    expect(bidi.status).toBe(400)
    expect(bidi.body.errors[0].path).toBe('body.name')
    const alias = await api.call('POST', '/api/manufacturers', { body: { name: 'Acme', aliases: ['AC\u200dME'] } })
    expect(alias.status).toBe(400)
    expect(alias.body.errors[0].path).toBe('body.aliases[0]')
    // A part's manufacturer matches a name or an alias by the same rule.
    const part = await create('/api/components', { name: 'P', tags: ['RÉSISTOR'], mpns: [{ manufacturer: 'ｔｉ', partNumber: 'NE555' }] })
    expect(part.tags).toEqual(['Résistor'])
    expect(part.mpns).toEqual([{ manufacturer: 'Texas Instruments', partNumber: 'NE555' }])
  })

  it('an import finds the component to update by a lookalike ipn', async () => {
    const a = await create('/api/components', { name: 'A', ipn: 'ÀX-1' })
    const upload = await api.call('POST', '/api/imports', { rawBody: 'ipn,Name,Description\nàx-1,A,updated\n', headers: { 'content-type': 'text/csv' } })
    expect(upload.status, upload.text).toBe(201)
    expect(upload.body.summary).toEqual({ create: 0, update: 1, unchanged: 0, invalid: 0 })
    expect((await api.call('POST', `/api/imports/${upload.body.id}/commit`)).status).toBe(200)
    // ipn is a mapped field, so the row's spelling replaces the stored one, as any mapped field does.
    expect((await api.call('GET', `/api/components/${a.id}`)).body).toMatchObject({ ipn: 'àx-1', description: 'updated' })
  })

  it('two lookalike ipns in one import file are a row error in the preview, not a 409 at commit', async () => {
    const upload = await api.call('POST', '/api/imports', { rawBody: 'ipn,Name\nLOOK-\uff11,first\nlook-1,second\n', headers: { 'content-type': 'text/csv' } })
    expect(upload.status, upload.text).toBe(201)
    expect(upload.body.summary).toEqual({ create: 1, update: 0, unchanged: 0, invalid: 1 })
    expect(upload.body.errors).toEqual([{ row: 3, path: 'ipn', message: 'differs from row 2, which has the same ipn' }])
  })
})
