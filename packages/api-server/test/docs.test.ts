import { describe, expect, it } from 'vitest'
import { useTestApi } from './harness'

const api = useTestApi()

describe('the API reference', () => {
  it('serves the OpenAPI document and the reference page', async () => {
    expect((await api.call('GET', '/api/docs')).body.openapi).toBe('3.1.0')
    expect((await api.call('GET', '/api/docs/ui')).text).toContain('SwaggerUIBundle')
    expect((await api.call('GET', '/api/docs/ui/swagger-ui.css')).status).toBe(200)
    expect((await api.call('GET', '/api/docs/ui/secret.txt')).status).toBe(400)
  })
})
