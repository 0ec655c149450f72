import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type RunningServer } from '@complib/api-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConflictError, NotFoundError, ValidationError, createClient, type ComplibClient } from '../src/index'

// What the library table reads through the client: sorts and filters, every
// matching id, stock and images, saved views, the export of picked rows.
let server: RunningServer
let dataDir: string
let client: ComplibClient

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'complib-sdk-table-'))
  server = await startServer({ port: 0, dataDir, log: () => {} })
  client = createClient({ baseUrl: server.url })
})

afterAll(async () => {
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('client-sdk: the library table', () => {
  it('sorts and filters the list, answers every matching id, stock and images, and exports picked rows', async () => {
    const r1 = await client.components.create({ name: 'R1', parameters: [{ type: 'Resistance', value: '10k' }] })
    const r2 = await client.components.create({ name: 'R2', parameters: [{ type: 'Resistance', value: '2k' }] })
    const r3 = await client.components.create({ name: 'R3', parameters: [{ type: 'Resistance', value: '1M' }] })
    const page = await client.components.list({ sort: '-parameter:Resistance', parameter: ['Resistance:1k..100k'] })
    expect(page.items.map((c) => c.name)).toEqual(['R1', 'R2'])
    await expect(client.components.list({ sort: 'price' as 'id' })).rejects.toBeInstanceOf(ValidationError)
    expect(await client.components.ids({ parameter: 'Resistance:5k..', sort: 'name' })).toEqual({ ids: [r1.id, r3.id], total: 2, nextCursor: null })
    await client.components.delete(r3.id)
    expect((await client.components.ids({ deleted: 'only' })).ids).toEqual([r3.id])

    const shelf = await client.locations.create({ name: 'Shelf' })
    await client.stock.set(r1.id, shelf.id, 9)
    const image = await client.attachments.fromUrl({ componentId: r1.id, url: 'https://example.com/r1.png', kind: 'image' })
    expect(await client.components.extras([r1.id, r2.id])).toEqual({
      [r1.id]: { stock: 9, image: { attachmentId: image.id, url: 'https://example.com/r1.png' } },
      [r2.id]: { stock: 0, image: null },
    })
    await expect(client.components.image(r2.id)).rejects.toBeInstanceOf(NotFoundError)

    expect((await client.exports.componentsById([r3.id, r2.id])).map((c) => c.id)).toEqual([r3.id, r2.id])
    expect((await client.exports.components({ parameter: 'Resistance:..5k' })).map((c) => c.id)).toEqual([r2.id])
    expect((await client.exports.componentsByIdCsv([r1.id])).split('\n')[1]).toContain(r1.id)
  })

  it('keeps saved views', async () => {
    const view = await client.views.create({ name: 'Big ones', state: { sort: '-stock', columns: ['name', 'stock'] } })
    await expect(client.views.create({ name: 'big ONES', state: {} })).rejects.toBeInstanceOf(ConflictError)
    expect(await client.views.patch(view.id, { name: 'Biggest' }, { ifMatch: view.version })).toMatchObject({ name: 'Biggest', version: 2 })
    expect((await client.views.list()).map((v) => v.name)).toEqual(['Biggest'])
    await client.views.delete(view.id)
    expect(await client.views.list()).toEqual([])
  })
})
