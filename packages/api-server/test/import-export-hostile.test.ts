import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

// Cells and column names an import must refuse or read safely: a row error (in a 201 preview) or a 4xx, never a 5xx, and never a change to the server's own objects.

const api = useTestApi()

const upload = (body: string, type: string) => api.call('POST', '/api/imports', { rawBody: body, headers: { 'content-type': type } })

describe('an import of hostile cells and column names', () => {
  it('refuses a flattened column name that reaches a prototype (__proto__, constructor, prototype), naming the column', async () => {
    const csv = 'name,parameters.0.name,parameters.0.value,parameters.0.__proto__.polluted,parameters.1.constructor.prototype.polluted\nR1,Resistance,10k,yes,yes\n'
    const session = await upload(csv, 'text/csv')
    expect(session.status, session.text).toBe(201)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    const errors = session.body.errors as Array<{ path: string; message: string }>
    expect(errors.map((e) => e.message).join('\n')).toMatch(/parameters\.0\.__proto__\.polluted names __proto__/)
    expect(errors.map((e) => e.message).join('\n')).toMatch(/parameters\.1\.constructor\.prototype\.polluted names constructor, prototype/)
    // The server goes on answering.
    expect((await api.call('GET', '/api/components?limit=1')).status).toBe(200)
  })

  it('reads a nested value where a stock quantity or location name belongs as a row error, not a crash', async () => {
    const csv = 'name,partLots.0.amount.x,partLots.0.storage_location.name.y\nR2,5,Shelf\n'
    const session = await upload(csv, 'text/csv')
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary.invalid).toBe(1)
    expect(JSON.stringify(session.body.errors)).toMatch(/must be texts or numbers, not \{/)
  })

  it('refuses a JSON attachment or stock item that is not an object or a text, naming the column', async () => {
    const json = JSON.stringify([
      { name: 'A', attachments: [null] },
      { name: 'B', attachments: [42] },
      { name: 'C', stock: [null] },
      { name: 'E', stock: [{ path: ['Shelf', { x: 1 }], quantity: 2 }] },
    ])
    const session = await upload(json, 'application/json')
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary).toMatchObject({ create: 0, invalid: 4 })
    const messages = (session.body.errors as Array<{ message: string }>).map((e) => e.message).join('\n')
    expect(messages).toMatch(/null is not a link/)
    expect(messages).toMatch(/42 is not a link/)
    expect(messages).toMatch(/null is not a stock entry/)
    expect(messages).toMatch(/path must be a list of location names/)
  })

  it('names a link after its last path segment even when that segment is not valid percent-encoding', async () => {
    const json = JSON.stringify([{ name: 'D', attachments: ['https://example.com/files/a%zz.pdf'] }])
    const session = await upload(json, 'application/json')
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary).toMatchObject({ create: 1, invalid: 0 })
    const commit = await api.call('POST', `/api/imports/${session.body.id}/commit`)
    expect(commit.status, commit.text).toBeLessThan(300)
    const [part] = (await api.call('GET', '/api/components?limit=5&sort=name')).body
    const attachment = await api.call('GET', `/api/attachments/${part.attachments[0].id}`)
    expect(attachment.body.name).toBe('a%zz.pdf')
  })
})

describe('an import matched by name', () => {
  it('finds the exact name among more than a page of components its words also match (no duplicate made)', async () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ name: `R x${i}` }))
    expect((await api.call('POST', '/api/bulk/components', { body: { items } })).status).toBe(200)
    const exact = await api.call('POST', '/api/components', { body: { name: 'R', description: 'old' } })
    expect(exact.status).toBe(201)
    const session = await api.call('POST', '/api/imports?upsertKey=name', { rawBody: 'name,description\nR,new\n', headers: { 'content-type': 'text/csv' } })
    expect(session.status, session.text).toBe(201)
    expect(session.body.summary).toMatchObject({ create: 0, update: 1 })
    expect(session.body.preview[0]).toMatchObject({ action: 'update', componentId: exact.body.id })
  })
})
