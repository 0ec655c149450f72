import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

const ok = (method: string, path: string, body?: unknown, status?: number) => api.ok(method, path, body, status)
const MISSING = { sym: 'sym_01JD7W3T9X4QF5B8S2M6K0N1PZ', fp: 'fp_01JD7W3T9X4QF5B8S2M6K0N1PZ', cmp: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ' }

for (const [plural, prefix] of [
  ['symbols', 'sym'],
  ['footprints', 'fp'],
] as const) {
  describe(plural, () => {
    it('creates, lists, reads, patches and deletes', async () => {
      const item = await ok('POST', `/api/${plural}`, { name: 'R', library: 'Device', content: '(sym)' }, 201)
      expect((await ok('GET', `/api/${plural}?q=dev`)).map((x: { id: string }) => x.id)).toEqual([item.id])
      expect((await ok('GET', `/api/${plural}/${item.id}`)).fileSize).toBe(5)
      expect((await ok('PATCH', `/api/${plural}/${item.id}`, { description: 'resistor' })).description).toBe('resistor')
      const file = await api.call('GET', `/api/${plural}/${item.id}/file`)
      expect(file.status).toBe(200)
      expect(file.text).toBe('(sym)')
      expect(file.headers.get('content-disposition')).toContain(item.fileName)
      await ok('DELETE', `/api/${plural}/${item.id}`, undefined, 204)
      expect((await api.call('GET', `/api/${plural}/${item.id}`)).status).toBe(404)
    })

    it('links to a component, lists its components, refuses to delete while linked, unlinks', async () => {
      const item = await ok('POST', `/api/${plural}`, { name: 'Device:R' }, 201)
      expect(item).toMatchObject({ library: 'Device', name: 'R' })
      const c = await ok('POST', '/api/components', { name: 'A' }, 201)
      expect((await ok('PUT', `/api/components/${c.id}/${plural}/${item.id}`))[plural]).toEqual([{ id: item.id, name: 'R' }])
      expect((await ok('GET', `/api/${plural}/${item.id}/components`)).map((x: { id: string }) => x.id)).toEqual([c.id])
      expect((await api.call('DELETE', `/api/${plural}/${item.id}`)).status).toBe(409)
      expect((await ok('DELETE', `/api/components/${c.id}/${plural}/${item.id}`))[plural]).toEqual([])
      expect((await api.call('DELETE', `/api/components/${c.id}/${plural}/${item.id}`)).status).toBe(404)
    })

    it('answers bad input and unknown ids with problems', async () => {
      expect((await api.call('POST', `/api/${plural}`, { body: { library: 'x' } })).status).toBe(400)
      // KiCad cannot use a reference without a library: refused on write, naming the field.
      const bare = await api.call('POST', `/api/${plural}`, { body: { name: 'LM358' } })
      expect(bare.status).toBe(400)
      expect(bare.body.errors).toEqual([{ path: 'body.library', message: expect.stringMatching(/Library:Name/) }])
      expect((await api.call('POST', `/api/${plural}`, { body: { name: 'x', library: 'A:B' } })).status).toBe(400)
      expect((await api.call('GET', `/api/${plural}/${MISSING[prefix]}`)).status).toBe(404)
      expect((await api.call('GET', `/api/${plural}/${MISSING[prefix]}/file`)).status).toBe(404)
      expect((await api.call('GET', `/api/${plural}/${MISSING[prefix]}/components`)).status).toBe(404)
      expect((await api.call('PATCH', `/api/${plural}/${MISSING[prefix]}`, { body: { name: 'x' } })).status).toBe(404)
      expect((await api.call('PUT', `/api/components/${MISSING.cmp}/${plural}/${MISSING[prefix]}`)).status).toBe(404)
      expect((await api.call('POST', `/api/${plural}`, { body: { name: 'x', fileName: '../etc/passwd' } })).status).toBe(400)
    })
  })
}
