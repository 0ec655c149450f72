import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let api: TestApi
beforeEach(async () => {
  api = await createTestApi()
})
afterEach(async () => {
  await api.close()
})

describe('system routes', () => {
  it('reports health, version and stats', async () => {
    expect((await api.call('GET', '/api/health')).body).toMatchObject({ status: 'ok', version: '1.0.0-beta.4' })
    expect((await api.call('GET', '/api/version')).body).toEqual({ version: '1.0.0-beta.4' })
    await api.call('POST', '/api/components', { body: { name: 'A', tags: ['t'] } })
    expect((await api.call('GET', '/api/stats')).body).toMatchObject({ components: 1, tags: 1 })
  })

  it('the packages said 0.1.0 while the server reported 1.0.0-beta.4; now every package and the server report one version', async () => {
    const versions = ['core', 'api-server', 'connector-webhook', 'client-sdk'].map(
      (name) => (JSON.parse(readFileSync(fileURLToPath(new URL(`../../${name}/package.json`, import.meta.url)), 'utf8')) as { version: string }).version,
    )
    const reported = (await api.call('GET', '/api/version')).body.version
    expect(versions).toEqual(versions.map(() => reported))
    expect((await api.call('GET', '/api/docs')).body.info.version).toBe(reported)
  })

  it('serves the OpenAPI document and the reference page', async () => {
    expect((await api.call('GET', '/api/docs')).body.openapi).toBe('3.1.0')
    expect((await api.call('GET', '/api/docs/ui')).text).toContain('SwaggerUIBundle')
    expect((await api.call('GET', '/api/docs/ui/swagger-ui.css')).status).toBe(200)
    expect((await api.call('GET', '/api/docs/ui/secret.txt')).status).toBe(400)
  })

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

  it('reads back an import session', async () => {
    const res = await api.call('POST', '/api/imports', { rawBody: 'name,ipn\nA,A-1\n', headers: { 'content-type': 'text/csv' } })
    const again = await api.call('GET', `/api/imports/${res.body.id}`)
    expect(again.body).toMatchObject({ id: res.body.id, rowCount: 1, status: 'pending' })
  })
})
