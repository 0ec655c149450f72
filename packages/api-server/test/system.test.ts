import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

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
})
