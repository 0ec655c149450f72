import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

describe('every route', () => {
  // Routes without inputs still refuse what they do not take, rather than ignoring it.
  for (const path of [
    '/api/health',
    '/api/version',
    '/api/stats',
    '/api/docs',
    '/api/docs/ui',
    '/api/locations/tree',
    '/api/exports/backup',
    '/api/kicad/v1/',
    '/api/kicad/v1/categories.json',
    '/api/connectors/types',
  ]) {
    it(`rejects an unknown query parameter on ${path}`, async () => {
      const res = await api.call('GET', `${path}?verbose=1`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0].path).toBe('query.verbose')
    })
  }

  for (const path of ['/api/symbols', '/api/footprints', '/api/attachments', '/api/manufacturers', '/api/parameter-types', '/api/tags', '/api/connectors', '/api/mpns', '/api/locations']) {
    it(`rejects a limit out of range on ${path}`, async () => {
      const res = await api.call('GET', `${path}?limit=0`)
      expect(res.status).toBe(400)
      expect(res.body.errors[0].path).toBe('query.limit')
    })
  }

  it('answers unknown jobs, imports, connector code and dry runs with 404', async () => {
    expect((await api.call('DELETE', '/api/jobs/job_01JD7W3T9X4QF5B8S2M6K0N1PZ')).status).toBe(404)
    expect((await api.call('GET', '/api/connectors/con_01JD7W3T9X4QF5B8S2M6K0N1PZ/code')).status).toBe(404)
    expect((await api.call('POST', '/api/connectors/con_01JD7W3T9X4QF5B8S2M6K0N1PZ/test')).status).toBe(404)
    expect((await api.call('POST', '/api/connector-runs/run_01JD7W3T9X4QF5B8S2M6K0N1PZ/resume')).status).toBe(404)
  })
})
