import { describe, expect, it } from 'vitest'
import { addToken, addUser, bearer } from './accounts'
import { useTestApi } from './harness'

// Saved views of the library table (decision 1508).

const api = useTestApi()
const MISSING = 'view_01JD7W3T9X4QF5B8S2M6K0N1PZ'
const STATE = { filters: { q: 'res', ranges: [{ type: 'Resistance', min: '1k', max: '' }] }, columns: ['name', 'stock'], sort: { key: 'stock', desc: true } }

describe('saved views, with no account (loopback open mode)', () => {
  it('creates, lists, renames, replaces the state of and deletes a view', async () => {
    const res = await api.call('POST', '/api/views', { body: { name: ' Resistors ', state: STATE } })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({ name: 'Resistors', state: STATE, version: 1 })
    expect(res.headers.get('location')).toBe(`/api/views/${res.body.id}`)
    await api.ok('POST', '/api/views', { name: 'Capacitors', state: {} }, 201)
    expect((await api.ok('GET', '/api/views')).map((v: { name: string }) => v.name)).toEqual(['Capacitors', 'Resistors'])
    const changed = await api.call('PATCH', `/api/views/${res.body.id}`, { body: { name: 'Big resistors', state: { sort: 'name' } }, headers: { 'if-match': '"1"' } })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body).toMatchObject({ name: 'Big resistors', state: { sort: 'name' }, version: 2 })
    expect(changed.headers.get('etag')).toBe('"2"')
    await api.ok('DELETE', `/api/views/${res.body.id}`, undefined, 204)
    expect((await api.ok('GET', '/api/views')).map((v: { name: string }) => v.name)).toEqual(['Capacitors'])
  })

  it('refuses a state that is no object or over 16 KiB, naming body.state, and saves nothing', async () => {
    for (const state of [[1, 2], 'x', null, { big: 'x'.repeat(16 * 1024) }]) {
      const res = await api.call('POST', '/api/views', { body: { name: 'v', state } })
      expect(res.status).toBe(400)
      expect(res.body.errors[0].path).toMatch(/^body\.state/)
    }
    expect((await api.call('POST', '/api/views', { body: { name: '', state: {} } })).body.errors[0].path).toBe('body.name')
    expect(await api.ok('GET', '/api/views')).toEqual([])
  })

  it('answers 409 for a name taken, 412 for a stale version, 404 for an unknown view', async () => {
    const v = await api.ok('POST', '/api/views', { name: 'Mine', state: {} }, 201)
    const other = await api.ok('POST', '/api/views', { name: 'Other', state: {} }, 201)
    const taken = await api.call('POST', '/api/views', { body: { name: 'MINE', state: {} } })
    expect(taken.status).toBe(409)
    expect((await api.call('PATCH', `/api/views/${other.id}`, { body: { name: 'mine' } })).status).toBe(409)
    expect((await api.call('PATCH', `/api/views/${v.id}`, { body: { name: 'x' }, headers: { 'if-match': '"7"' } })).status).toBe(412)
    expect((await api.call('PATCH', `/api/views/${MISSING}`, { body: { name: 'x' } })).status).toBe(404)
    expect((await api.call('DELETE', `/api/views/${MISSING}`)).status).toBe(404)
    expect((await api.call('PATCH', `/api/views/nope`, { body: {} })).status).toBe(400)
  })
})

describe('saved views, with accounts', () => {
  it('are each account\'s own: another\'s view is a 404, and any reader may keep views', async () => {
    const ada = bearer(await addToken(api.storage, await addUser(api.storage, 'ada', 'viewer'), 'read'))
    const bob = bearer(await addToken(api.storage, await addUser(api.storage, 'bob', 'editor'), 'write'))
    const mine = await api.call('POST', '/api/views', { body: { name: 'Mine', state: { a: 1 } }, headers: ada })
    expect(mine.status, mine.text).toBe(201)
    // The same name is free to another account.
    expect((await api.call('POST', '/api/views', { body: { name: 'Mine', state: {} }, headers: bob })).status).toBe(201)
    expect((await api.call('GET', '/api/views', { headers: bob })).body.map((v: { id: string }) => v.id)).not.toContain(mine.body.id)
    expect((await api.call('PATCH', `/api/views/${mine.body.id}`, { body: { name: 'Stolen' }, headers: bob })).status).toBe(404)
    expect((await api.call('DELETE', `/api/views/${mine.body.id}`, { headers: bob })).status).toBe(404)
    expect((await api.call('GET', '/api/views', { headers: ada })).body).toEqual([mine.body])
    expect((await api.call('GET', '/api/views')).status).toBe(401)
  })
})
