import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

// The export of exactly the rows the table lists, or of the rows picked (decision 0620).

const api = useTestApi()
const MISSING = 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ'

async function library() {
  const make = (body: Record<string, unknown>) => api.ok('POST', '/api/components', body, 201)
  const parts = []
  for (let i = 0; i < 12; i++) {
    parts.push(
      await make({
        name: `Part ${i}`,
        category: i % 3 === 0 ? 'ICs' : 'Passives/Resistors',
        status: i % 4 === 0 ? 'draft' : 'active',
        parameters: [{ type: 'Resistance', value: `${i}k` }],
        mpns: [{ manufacturer: i % 2 ? 'Yageo' : 'Vishay', partNumber: `P-${i}` }],
      }),
    )
  }
  return parts as Array<{ id: string; name: string }>
}

describe('GET /api/exports/components with the list\'s filters', () => {
  it('holds exactly the rows the list gives, JSON and CSV', async () => {
    await library()
    for (const filters of ['category=Passives&parameter=Resistance:2k..9k', 'manufacturer=yageo&status=active', 'q=Part&parameter=Resistance:..3k&tag=none', 'parameter=Resistance=5k']) {
      const expected = (await api.ok('GET', `/api/components/ids?${filters}&sort=id`)).ids as string[]
      const json = await api.call('GET', `/api/exports/components?format=json&${filters}`)
      expect(json.status, json.text).toBe(200)
      expect(json.body.map((c: { id: string }) => c.id), filters).toEqual(expected)
      const csv = await api.call('GET', `/api/exports/components?format=csv&${filters}`)
      const ids = csv.text.trim().split('\n').slice(1).map((line: string) => line.split(',')[0])
      expect(ids, filters).toEqual(expected)
    }
    expect((await api.ok('GET', '/api/components/ids?category=Passives&parameter=Resistance:2k..9k')).ids).toHaveLength(5)
  })

  it('exports the trash with deleted=only', async () => {
    const parts = await library()
    await api.ok('DELETE', `/api/components/${parts[3]!.id}`, undefined, 204)
    const json = await api.ok('GET', '/api/exports/components?deleted=only')
    expect(json.map((c: { id: string }) => c.id)).toEqual([parts[3]!.id])
    expect((await api.ok('GET', '/api/exports/components')).map((c: { id: string }) => c.id)).not.toContain(parts[3]!.id)
  })

  it('refuses a bad filter with a 400 naming it', async () => {
    const res = await api.call('GET', '/api/exports/components?parameter=Resistance:x..y')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toMatch(/^query\.parameter/)
  })
})

describe('POST /api/exports/components', () => {
  it('holds exactly the components named, in their order, deleted ones too', async () => {
    const parts = await library()
    await api.ok('DELETE', `/api/components/${parts[5]!.id}`, undefined, 204)
    const ids = [parts[7]!.id, parts[5]!.id, MISSING, parts[0]!.id, parts[7]!.id]
    const json = await api.call('POST', '/api/exports/components', { body: { ids } })
    expect(json.status, json.text).toBe(200)
    expect(json.body.map((c: { id: string }) => c.id)).toEqual([parts[7]!.id, parts[5]!.id, parts[0]!.id])
    const csv = await api.call('POST', '/api/exports/components', { body: { format: 'csv', ids: [parts[2]!.id] } })
    expect(csv.headers.get('content-type')).toContain('text/csv')
    expect(csv.text.trim().split('\n').slice(1).map((line: string) => line.split(',')[0])).toEqual([parts[2]!.id])
  })

  it('refuses no ids or a malformed one with a 400 naming body.ids', async () => {
    for (const body of [{ ids: [] }, { ids: ['nope'] }, { format: 'xml', ids: [MISSING] }]) {
      const res = await api.call('POST', '/api/exports/components', { body })
      expect(res.status).toBe(400)
      expect(res.body.errors[0].path).toMatch(/^body\.(ids|format)/)
    }
  })
})
