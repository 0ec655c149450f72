import { type Storage } from '@complib/core'
import { createSqliteStorage } from '@complib/core/sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from './app'
import { isLoopbackHost } from './auth/loopback'

let storage: Storage
beforeEach(async () => {
  storage = await createSqliteStorage()
})
afterEach(async () => {
  await storage.close()
})

describe('system', () => {
  it('answers GET /api/health with 200 and the version', async () => {
    const app = createApp({ storage })
    const res = await app.fetch(new Request('http://local/api/health'))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok', version: '1.0.0-beta.4', storage: 'sqlite' })
  })

  it('answers an unknown route with a 404 problem', async () => {
    const app = createApp({ storage })
    const res = await app.fetch(new Request('http://local/api/nope'))
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(await res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: 'no route for GET /api/nope' })
  })
})

describe('api key', () => {
  it('rejects a request without the key with a 401 problem; health stays open', async () => {
    const app = createApp({ storage, apiKey: 's3cret' })
    expect((await app.fetch(new Request('http://local/api/health'))).status).toBe(200)
    const res = await app.fetch(new Request('http://local/api/stats'))
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(res.headers.get('www-authenticate')).toContain('Bearer')
    expect(((await res.json()) as { code: string }).code).toBe('UNAUTHORIZED')
  })

  it('rejects a wrong key', async () => {
    const app = createApp({ storage, apiKey: 's3cret' })
    const res = await app.fetch(new Request('http://local/api/stats', { headers: { authorization: 'Bearer s3cre' } }))
    expect(res.status).toBe(401)
  })

  it('accepts the right key', async () => {
    const app = createApp({ storage, apiKey: 's3cret' })
    const res = await app.fetch(new Request('http://local/api/stats', { headers: { authorization: 'Bearer s3cret' } }))
    expect(res.status).toBe(200)
  })

  it('knows loopback from other hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h)).toBe(true)
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) expect(isLoopbackHost(h)).toBe(false)
  })

  it('off loopback (requireCredentials) refuses every route but health and sign-in without a credential, even with no account', async () => {
    const app = createApp({ storage, requireCredentials: true })
    expect((await app.fetch(new Request('http://local/api/health'))).status).toBe(200)
    const res = await app.fetch(new Request('http://local/api/components'))
    expect(res.status).toBe(401)
    expect(((await res.json()) as { detail: string }).detail).toMatch(/sign in|Bearer/)
  })
})

describe('api reference', () => {
  it('serves the interactive reference page and its files from this machine', async () => {
    const app = createApp({ storage })
    const page = await app.fetch(new Request('http://local/api/docs/ui'))
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("url: '/api/docs'")
    expect(html).not.toMatch(/https?:\/\//)
    for (const src of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const asset = await app.fetch(new Request(`http://local${src[1]}`))
      expect(asset.status, src[1]).toBe(200)
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100)
    }
  })

  it('refuses a file outside the reference assets', async () => {
    const app = createApp({ storage })
    const res = await app.fetch(new Request('http://local/api/docs/ui/..%2Fpackage.json'))
    expect(res.status).toBe(400)
  })
})
