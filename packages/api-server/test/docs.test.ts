import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from './harness'

let api: TestApi
beforeEach(async () => {
  api = await createTestApi()
})
afterEach(async () => {
  await api.close()
})

describe('the API reference', () => {
  it('serves the OpenAPI document and the reference page', async () => {
    expect((await api.call('GET', '/api/docs')).body.openapi).toBe('3.1.0')
    expect((await api.call('GET', '/api/docs/ui')).text).toContain('SwaggerUIBundle')
    expect((await api.call('GET', '/api/docs/ui/swagger-ui.css')).status).toBe(200)
    expect((await api.call('GET', '/api/docs/ui/secret.txt')).status).toBe(400)
  })
})
