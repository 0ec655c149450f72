import { createId } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

// The list routes whose page holds at most 1,000 items: the schema each publishes says so,
// and a larger `limit` is refused like any other bad input, never silently shortened.
const LIST_OPERATIONS = [
  'listAttachments',
  'getComponentHistory',
  'listConnectors',
  'listConnectorRuns',
  'listSymbols',
  'listSymbolComponents',
  'listFootprints',
  'listFootprintComponents',
  'listLocations',
  'listManufacturers',
  'listMpns',
  'listParameterTypes',
  'listTags',
]

describe('page limits', () => {
  it('are published as each list route’s maximum; the components list keeps its full listing', async () => {
    const doc = (await api.call('GET', '/api/docs')).body
    const limits = new Map<string, unknown>()
    for (const item of Object.values(doc.paths) as Array<Record<string, { operationId: string; parameters?: Array<{ name: string; in: string; schema: { maximum?: number } }> }>>) {
      for (const op of Object.values(item)) {
        const limit = op.parameters?.find((p) => p.in === 'query' && p.name === 'limit')
        if (limit) limits.set(op.operationId, limit.schema.maximum)
      }
    }
    for (const id of LIST_OPERATIONS) expect(limits.get(id), id).toBe(1000)
    expect(limits.get('listComponents')).toBe(100_000)
  })

  it('refuse a limit above 1000 with a 400 naming query.limit, and take 1000', async () => {
    const component = await api.ok('POST', '/api/components', { name: 'R1' }, 201)
    const paths = [
      '/api/attachments',
      `/api/components/${component.id}/history`,
      '/api/connectors',
      `/api/connectors/${createId('connector')}/runs`,
      '/api/symbols',
      `/api/symbols/${createId('symbol')}/components`,
      '/api/footprints',
      `/api/footprints/${createId('footprint')}/components`,
      '/api/locations',
      '/api/manufacturers',
      '/api/mpns',
      '/api/parameter-types',
      '/api/tags',
    ]
    for (const path of paths) {
      const res = await api.call('GET', `${path}?limit=1001`)
      expect(res.status, path).toBe(400)
      expect(res.body.errors[0].path, path).toBe('query.limit')
    }
    for (const path of paths.filter((p) => !/(runs|components)$/.test(p) || p.includes(component.id))) {
      expect((await api.call('GET', `${path}?limit=1000`)).status, path).toBe(200)
    }
  })
})
