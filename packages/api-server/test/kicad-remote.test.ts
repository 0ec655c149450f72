import { createHash } from 'node:crypto'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestApi, useTestApi, type TestApi } from './harness'

/**
 * KiCad 10's remote symbol panel against complib, checked the way KiCad's own
 * code checks a provider (decision 0638): the discovery document as
 * common/remote_provider_metadata.cpp reads it, the part manifest as
 * common/remote_provider_models.cpp and panel_remote_symbol.cpp
 * (receiveComponentManifest) read it, each file as
 * eeschema/remote_symbol_download_manager.cpp and remote_symbol_import_job.cpp
 * take it, and the page's messages as panel_remote_symbol.cpp (handleRpcMessage)
 * expects them.
 */

const api = useTestApi()
const PROVIDER_URL = 'http://127.0.0.1/api/kicad-remote'

afterEach(() => {
  vi.useRealTimers()
})

const SYMBOL_LIB = `(kicad_symbol_lib (version 20241209) (generator "kicad_symbol_editor")
  (symbol "R" (pin_numbers (hide yes)) (exclude_from_sim no) (in_bom yes) (on_board yes)
    (property "Reference" "R" (at 2.032 0 90) (effects (font (size 1.27 1.27))))
    (property "Value" "R" (at 0 0 90) (effects (font (size 1.27 1.27))))
    (property "Footprint" "" (at -1.778 0 90) (effects (font (size 1.27 1.27)) (hide yes)))
  )
)
`
const FOOTPRINT = '(footprint "R_0603_1608Metric" (version 20241229) (generator "pcbnew") (layer "F.Cu") (descr "Résistance 0603"))\n'

/** KiCad's IsLoopbackHost and ValidateRemoteUrlSecurity (common/remote_provider_utils.cpp). */
function urlAllowed(url: string, allowInsecureLocalhost: boolean): boolean {
  const u = new URL(url)
  if (u.protocol === 'https:') return true
  return u.protocol === 'http:' && allowInsecureLocalhost && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)
}

/** What REMOTE_PROVIDER_METADATA::FromJson refuses, besides the schema's shape (common/remote_provider_metadata.cpp). */
function metadataProblems(doc: Record<string, any>): string[] {
  const problems: string[] = []
  for (const key of ['provider_name', 'provider_version', 'api_base_url', 'panel_url', 'auth', 'capabilities', 'max_download_bytes', 'supported_asset_types']) {
    if (!(key in doc)) problems.push(`${key} missing`)
  }
  const known = ['web_ui_v1', 'parts_v1', 'direct_downloads_v1', 'inline_payloads_v1']
  for (const name of Object.keys(doc.capabilities ?? {})) if (!known.includes(name)) problems.push(`unsupported capability ${name}`)
  if (doc.capabilities?.web_ui_v1 !== true) problems.push('web_ui_v1 off')
  if (!doc.capabilities?.direct_downloads_v1 && !doc.capabilities?.inline_payloads_v1) problems.push('no download capability')
  if (!['none', 'oauth2'].includes(doc.auth?.type)) problems.push('auth.type')
  if (!Number.isInteger(doc.max_download_bytes) || doc.max_download_bytes < 1) problems.push('max_download_bytes')
  for (const t of doc.supported_asset_types ?? []) if (!['symbol', 'footprint', '3dmodel', 'spice'].includes(t)) problems.push(`asset type ${t}`)
  if (doc.parts && !String(doc.parts.endpoint_template).startsWith('/')) problems.push('parts.endpoint_template')
  for (const key of ['api_base_url', 'panel_url']) if (!urlAllowed(doc[key], doc.allow_insecure_localhost === true)) problems.push(`${key} not https`)
  return problems
}

/** REMOTE_PROVIDER_CLIENT::MetadataDiscoveryUrl (common/remote_provider_client.cpp). */
function discoveryUrl(providerUrl: string): string {
  return `${providerUrl.replace(/\/+$/, '')}/.well-known/kicad-remote-provider`
}

/** buildPartsUrl and joinUrl (common/remote_provider_client.cpp). */
function partsUrl(doc: Record<string, any>, partId: string): string {
  return `${doc.api_base_url.replace(/\/+$/, '')}${doc.parts.endpoint_template.replace('{part_id}', encodeURIComponent(partId))}`
}

/** The path of a URL of the test app (which answers on 127.0.0.1). */
function pathOf(url: string): string {
  const u = new URL(url)
  expect(u.origin).toBe('http://127.0.0.1')
  return u.pathname + u.search
}

async function discover(on: TestApi = api): Promise<Record<string, any>> {
  const res = await on.call('GET', pathOf(discoveryUrl(`${PROVIDER_URL}/`)))
  expect(res.status, res.text).toBe(200)
  return res.body
}

/** A component with a symbol (whole library file) and a footprint, both with files. */
async function part(on: TestApi = api, headers: Record<string, string> = {}) {
  const post = async (path: string, body: unknown) => {
    const res = await on.call('POST', path, { body, headers })
    expect(res.status, res.text).toBe(201)
    return res.body
  }
  const symbol = await post('/api/symbols', { name: 'R', library: 'Device', fileName: 'Device.kicad_sym', content: SYMBOL_LIB })
  const footprint = await post('/api/footprints', { name: 'R_0603_1608Metric', library: 'Resistor_SMD', fileName: 'R_0603_1608Metric.kicad_mod', content: FOOTPRINT })
  const component = await post('/api/components', { name: 'R 10k 0603', ipn: 'RES-00001', description: '10k thick film', symbols: [symbol.id], footprints: [footprint.id] })
  return { symbol, footprint, component }
}

/** REMOTE_SYMBOL_DOWNLOAD_MANAGER::DownloadAndVerify, with KiCad's request: no credential, no redirect. */
async function download(doc: Record<string, any>, asset: Record<string, any>, on: TestApi = api): Promise<Buffer> {
  const origin = new URL(asset.download_url).origin
  expect([new URL(doc.api_base_url).origin, new URL(doc.panel_url).origin]).toContain(origin)
  expect(urlAllowed(asset.download_url, doc.allow_insecure_localhost)).toBe(true)
  const res = await on.call('GET', pathOf(asset.download_url))
  expect(res.status, res.text).toBe(200)
  expect(res.headers.get('content-type')).toBe(asset.content_type)
  const bytes = Buffer.from(res.text, 'utf8')
  expect(bytes.length).toBe(asset.size_bytes)
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(asset.sha256.toLowerCase())
  return bytes
}

describe('KiCad remote symbol provider', () => {
  it('answers discovery with metadata KiCad accepts, loopback http allowed only for loopback', async () => {
    const doc = await discover()
    expect(metadataProblems(doc)).toEqual([])
    expect(doc).toMatchObject({ api_base_url: `${PROVIDER_URL}/v1`, panel_url: `${PROVIDER_URL}/v1/panel`, allow_insecure_localhost: true, auth: { type: 'none' } })
    // KiCad checks metadata_url and session_bootstrap_url only for oauth2; neither is sent.
    expect(doc).not.toHaveProperty('session_bootstrap_url')
    const res = await api.call('GET', '/api/kicad-remote/.well-known/kicad-remote-provider?verbose=1')
    expect(res.status).toBe(400)
    expect(res.body.errors[0].path).toBe('query.verbose')
  })

  it('serves a part manifest whose files KiCad downloads and verifies without a credential', async () => {
    const { component, symbol } = await part()
    const doc = await discover()
    const manifest = (await api.call('GET', pathOf(partsUrl(doc, component.id)))).body
    expect(manifest).toMatchObject({ part_id: component.id, display_name: 'RES-00001 R 10k 0603', summary: '10k thick film' })
    expect(manifest.assets.map((a: any) => [a.asset_type, a.target_library, a.target_name, a.content_type, a.required])).toEqual([
      ['symbol', 'Device-R', 'R', 'application/x-kicad-symbol', true],
      ['footprint', 'Resistor_SMD', 'R_0603_1608Metric', 'application/x-kicad-footprint', false],
    ])
    let budget = doc.max_download_bytes
    for (const asset of manifest.assets) {
      // receiveComponentManifest refuses an asset without these; the schema wants a 64-hex digest.
      expect(asset.size_bytes).toBeGreaterThan(0)
      expect(asset.sha256).toMatch(/^[a-fA-F0-9]{64}$/)
      expect(asset.size_bytes).toBeLessThanOrEqual(budget)
      budget -= asset.size_bytes
      const bytes = (await download(doc, asset)).toString('utf8')
      if (asset.asset_type === 'symbol') {
        // validateSymbolPayload (remote_symbol_import_job.cpp).
        expect(bytes).toContain('(kicad_symbol_lib')
        expect(bytes).toContain(`(symbol "${asset.target_name}"`)
        expect(bytes).toBe(SYMBOL_LIB)
      } else expect(bytes).toBe(FOOTPRINT)
    }
    expect(symbol.id).toMatch(/^sym_/)
  })

  it('refuses a part without files KiCad can take, an unknown part, and a malformed id', async () => {
    const noFile = await api.ok('POST', '/api/symbols', { name: 'C', library: 'Device' }, 201)
    // A file that does not hold its symbol by name: KiCad's import would refuse it.
    const wrong = await api.ok('POST', '/api/symbols', { name: 'L', library: 'Device', fileName: 'Device.kicad_sym', content: SYMBOL_LIB }, 201)
    const c1 = await api.ok('POST', '/api/components', { name: 'bare', symbols: [noFile.id] }, 201)
    const c2 = await api.ok('POST', '/api/components', { name: 'mismatch', symbols: [wrong.id] }, 201)
    for (const c of [c1, c2]) {
      const res = await api.call('GET', `/api/kicad-remote/v1/parts/${c.id}`)
      expect(res.status).toBe(409)
      expect(res.body.detail).toContain('symbol or footprint file')
    }
    expect((await api.call('GET', '/api/kicad-remote/v1/parts/cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ')).status).toBe(404)
    const bad = await api.call('GET', '/api/kicad-remote/v1/parts/R1')
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].path).toBe('path.part_id')
  })

  it('refuses a download URL whose capability is not the file\'s as it is now: forged, of another file, or of an older content', async () => {
    const { component } = await part()
    const doc = await discover()
    const [sym, fp] = (await api.ok('GET', pathOf(partsUrl(doc, component.id)))).assets
    const capability = (u: string) => u.split('/').at(-1)!
    const forged = await api.call('GET', pathOf(sym.download_url.replace(/[^/]+$/, 'A'.repeat(43))))
    expect(forged.status).toBe(403)
    expect(forged.body.detail).toMatch(/^capability:/)
    // The symbol's capability on the footprint's path.
    expect((await api.call('GET', pathOf(fp.download_url.replace(/[^/]+$/, capability(sym.download_url))))).status).toBe(403)
    expect((await api.call('GET', pathOf(sym.download_url.replace(/[^/]+$/, 'xyz')))).status).toBe(400)
    // The URL keeps working (KiCad may fetch later, from another server of the same database) until the file changes.
    expect((await api.call('GET', pathOf(fp.download_url))).status).toBe(200)
    const footprintId = pathOf(fp.download_url).split('/').at(-2)!
    const stored = await api.ok('GET', `/api/footprints/${footprintId}`)
    const edited = await api.call('PATCH', `/api/footprints/${footprintId}`, { body: { content: '(footprint "R_0603" (layer "F.Cu"))\n' }, headers: { 'if-match': `"${stored.version}"` } })
    expect(edited.status, edited.text).toBe(200)
    const stale = await api.call('GET', pathOf(fp.download_url))
    expect(stale.status).toBe(403)
    const fresh = (await api.ok('GET', pathOf(partsUrl(doc, component.id)))).assets[1]
    expect(fresh.download_url).not.toBe(fp.download_url)
    expect((await api.call('GET', pathOf(fresh.download_url))).status).toBe(200)
  })

  it('asks for a credential for the manifest but not for the files it signs', async () => {
    const keyed = await createTestApi({ app: { apiKey: 'k3y-for-kicad-remote-tests' } })
    try {
      const auth = { authorization: 'Bearer k3y-for-kicad-remote-tests' }
      const { component } = await part(keyed, auth)
      const doc = await discover(keyed)
      expect(metadataProblems(doc)).toEqual([])
      const path = pathOf(partsUrl(doc, component.id))
      expect((await keyed.call('GET', path)).status).toBe(401)
      const manifest = (await keyed.call('GET', path, { headers: auth })).body
      for (const asset of manifest.assets) await download(doc, asset, keyed)
      expect((await keyed.call('GET', '/api/kicad-remote/v1/panel')).status).toBe(200)
    } finally {
      await keyed.close()
    }
  })

  it('serves the panel page: its script is allowed by its policy, and speaks to KiCad as panel_remote_symbol.cpp expects', async () => {
    const { component } = await part()
    const res = await api.call('GET', '/api/kicad-remote/v1/panel')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const script = /<script>([\s\S]*)<\/script>/.exec(res.text)![1]!
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`)
    expect(csp).toContain("connect-src 'self'")

    // A web view: the page's elements, fetch on the same origin with the view's credentials, and KiCad's message handler.
    const elements = new Map<string, any>()
    const element = (id?: string) => {
      const e: any = { id, textContent: '', hidden: id === 'login', value: '', disabled: false, children: [] as any[], listeners: {} as Record<string, (event: unknown) => unknown> }
      e.addEventListener = (type: string, fn: (event: unknown) => unknown) => (e.listeners[type] = fn)
      e.appendChild = (child: any) => e.children.push(child)
      return e
    }
    for (const id of ['search', 'q', 'login', 'user', 'password', 'status', 'results']) elements.set(id, element(id))
    const posted: string[] = []
    const window: any = { kicad: { postMessage: (text: string) => posted.push(text) } }
    const sandbox = {
      window,
      document: { getElementById: (id: string) => elements.get(id), createElement: () => element(), createTextNode: (text: string) => ({ text }) },
      fetch: async (url: string, init: { method?: string; body?: string } = {}) => {
        const r = await api.call(init.method ?? 'GET', url, init.body ? { body: init.body } : {})
        return { ok: r.status < 300, status: r.status, json: async () => r.body }
      },
      JSON,
    }
    runInNewContext(script, sandbox)
    expect(typeof window.kiclient.postMessage).toBe('function')

    // Before KiCad's NEW_SESSION the page sends nothing.
    await window.complibPanel.place(component.id)
    expect(posted).toEqual([])

    // beginSessionHandshake → sendRpcNotification: RunScriptAsync("window.kiclient.postMessage('<json>');").
    const sessionId = '3f1c1e7a-0b4e-4c1b-9a53-5d2f0c7e8a11'
    window.kiclient.postMessage(JSON.stringify({ version: 1, session_id: sessionId, message_id: 1, command: 'NEW_SESSION', status: 'OK', parameters: { client_name: 'KiCad', client_version: '10.0.0', supported_versions: [1] } }))
    expect(elements.get('status').textContent).toBe('Connected to KiCad 10.0.0')

    await window.complibPanel.search()
    expect(elements.get('results').children).toHaveLength(1)
    await window.complibPanel.place(component.id)
    expect(posted).toHaveLength(1)
    const message = JSON.parse(posted[0]!)
    // handleRpcMessage: an integer message_id, version 1, this session's id; PLACE_COMPONENT with assets goes to receiveComponentManifest.
    expect(Number.isInteger(message.message_id)).toBe(true)
    expect(message).toMatchObject({ version: 1, session_id: sessionId, command: 'PLACE_COMPONENT' })
    expect(Array.isArray(message.parameters.assets)).toBe(true)
    for (const asset of message.parameters.assets) {
      for (const key of ['asset_type', 'content_type', 'download_url']) expect(asset[key]).toEqual(expect.any(String))
      expect(asset.size_bytes).toBeGreaterThan(0)
      await download(await discover(), asset)
    }
    // No symbol_name: KiCad takes the symbol asset's target_name and target_library.
    expect(message.parameters.assets.find((a: any) => a.asset_type === 'symbol')).toMatchObject({ target_name: 'R', target_library: 'Device-R' })

    // sendRpcReply / sendRpcError, as KiCad answers.
    window.kiclient.postMessage(JSON.stringify({ version: 1, session_id: sessionId, message_id: 2, command: 'PLACE_COMPONENT', status: 'OK', response_to: message.message_id }))
    expect(elements.get('status').textContent).toContain('KiCad took the part')
    window.kiclient.postMessage(JSON.stringify({ version: 1, session_id: sessionId, message_id: 3, command: 'PLACE_COMPONENT', status: 'ERROR', response_to: message.message_id, error_code: 'IMPORT_FAILED', error_message: 'Remote asset digest did not match the manifest.' }))
    expect(elements.get('status').textContent).toBe('KiCad: Remote asset digest did not match the manifest.')

    const refused = await api.call('GET', '/api/kicad-remote/v1/panel?verbose=1')
    expect(refused.status).toBe(400)
  })
})
