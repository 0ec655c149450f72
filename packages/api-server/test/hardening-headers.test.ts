import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { ROUTES } from '../src/routes'
import { useTestApi } from './harness'

const api = useTestApi()

const SYMBOL_LIB = '(kicad_symbol_lib (version 20241209) (generator "test")\n  (symbol "R" (in_bom yes) (on_board yes))\n)\n'
const FOOTPRINT = '(footprint "R_0603_1608Metric" (version 20240108) (generator "test") (layer "F.Cu"))\n'

/** What keeps a page out of another site's frame: the policy's frame-ancestors, and the older header. */
function expectFramingRefused(headers: Headers, what: string): void {
  expect(headers.get('content-security-policy') ?? '', what).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/)
  expect(headers.get('x-frame-options'), what).toBe('DENY')
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
}

/** What keeps a stored file from acting as a page of the server (decision 1013). */
function expectInertDownload(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(headers.get('content-security-policy'), what).toBe('sandbox')
}

describe('HTML answers refuse framing (decision 1012)', () => {
  it('every route that answers HTML sends a policy with frame-ancestors and X-Frame-Options DENY', async () => {
    const html = ROUTES.filter((r) => r.method === 'GET' && Object.values(r.responses).some((x) => x.contentType === 'text/html'))
    // The API reference and the KiCad panel at least: a walk that finds none checks nothing.
    expect(html.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/docs/ui', '/api/kicad-remote/v1/panel']))
    for (const route of html) {
      const res = await api.call('GET', route.path)
      expect(res.status, route.path).toBe(200)
      expect(res.headers.get('content-type'), route.path).toMatch(/^text\/html/)
      expectFramingRefused(res.headers, route.path)
    }
  })

  it('the API reference runs only its own scripts: the bundle and its start-up script, by hash', async () => {
    const res = await api.call('GET', '/api/docs/ui')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/)
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).toContain("connect-src 'self'")
    // No badge from validator.swagger.io: the policy would refuse it, and the reference works offline.
    expect(res.text).toContain('validatorUrl: null')
  })

  it('the web interface page refuses framing too; its scripts and styles are not pages', async () => {
    const web = mkdtempSync(join(tmpdir(), 'complib-web-'))
    const storage = await createSqliteStorage()
    try {
      writeFileSync(join(web, 'index.html'), '<!doctype html><title>complib</title>')
      writeFileSync(join(web, 'app.js'), 'void 0')
      const app = createApp({ storage, webDir: web })
      const page = await app.fetch(new Request('http://127.0.0.1/'))
      expect(page.status).toBe(200)
      expectFramingRefused(page.headers, '/')
      const script = await app.fetch(new Request('http://127.0.0.1/app.js'))
      expect(script.headers.get('x-content-type-options')).toBe('nosniff')
    } finally {
      await storage.close()
      rmSync(web, { recursive: true, force: true })
    }
  })
})

describe('file downloads are inert (decision 1013)', () => {
  it('symbol and footprint files: nosniff and a sandbox policy, as attachments', async () => {
    const symbol = await api.ok('POST', '/api/symbols', { name: 'R', library: 'Device', fileName: 'Device.kicad_sym', content: SYMBOL_LIB }, 201)
    const footprint = await api.ok('POST', '/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD', fileName: 'R.kicad_mod', content: FOOTPRINT }, 201)
    for (const path of [`/api/symbols/${symbol.id}/file`, `/api/footprints/${footprint.id}/file`]) {
      const res = await api.call('GET', path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-disposition'), path).toMatch(/^attachment;/)
      expectInertDownload(res.headers, path)
    }
    const attachment = await api.call('POST', '/api/attachments?name=page.html', { rawBody: '<script>alert(1)</script>', headers: { 'content-type': 'text/html' } })
    expect(attachment.status, attachment.text).toBe(201)
    expectInertDownload((await api.call('GET', `/api/attachments/${attachment.body.id}/content`)).headers, 'attachment')
  })

  it("KiCad's asset downloads: nosniff and sandbox, the content type still exactly the manifest's", async () => {
    const symbol = await api.ok('POST', '/api/symbols', { name: 'R', library: 'Device', fileName: 'Device.kicad_sym', content: SYMBOL_LIB }, 201)
    const footprint = await api.ok('POST', '/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD', fileName: 'R.kicad_mod', content: FOOTPRINT }, 201)
    const component = await api.ok('POST', '/api/components', { name: 'R 10k', symbols: [symbol.id], footprints: [footprint.id] }, 201)
    const manifest = await api.ok('GET', `/api/kicad-remote/v1/parts/${component.id}`)
    expect(manifest.assets).toHaveLength(2)
    for (const asset of manifest.assets) {
      const res = await api.call('GET', new URL(asset.download_url).pathname)
      expect(res.status, res.text).toBe(200)
      expect(res.headers.get('content-type')).toBe(asset.content_type)
      expectInertDownload(res.headers, asset.asset_type)
    }
  })
})
