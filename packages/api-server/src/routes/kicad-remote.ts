import { ComplibError, idSchema, type Storage } from '@complib/core'
import { createHash, timingSafeEqual } from 'node:crypto'
import * as z from 'zod'
import { downloadHeaders } from '../http/download-headers'
import { htmlPageHeaders } from '../http/page-headers'
import { defineRoute, type AnyRoute } from '../routing/define-route'

/**
 * KiCad 10's remote symbol panel (Schematic Editor → Remote Symbols), with
 * complib as its provider (decision 0638). KiCad is given the provider URL
 * `<server>/api/kicad-remote` and:
 *
 * 1. reads `<that>/.well-known/kicad-remote-provider`, without credentials
 *    (common/remote_provider_client.cpp, DiscoverProvider), and checks it as
 *    common/remote_provider_metadata.cpp does: `web_ui_v1` on, direct or inline
 *    downloads on, every URL https, or http to localhost/127.0.0.1/::1 only
 *    when `allow_insecure_localhost` is true (common/remote_provider_utils.cpp);
 * 2. shows `panel_url` in a web view (eeschema/widgets/panel_remote_symbol.cpp).
 *    KiCad calls the page's `window.kiclient.postMessage(json)` (NEW_SESSION
 *    first, with the session id); the page calls `window.kicad.postMessage(json)`
 *    with `PLACE_COMPONENT` and a part manifest as parameters;
 * 3. downloads every asset of the manifest with no credential, no redirect,
 *    from the origin of `api_base_url` or `panel_url`, and refuses it unless the
 *    Content-Type equals the manifest's `content_type` and its size and SHA-256
 *    match (eeschema/remote_symbol_download_manager.cpp). A symbol asset must be
 *    a whole `(kicad_symbol_lib …)` holding `(symbol "<target_name>"`
 *    (eeschema/remote_symbol_import_job.cpp).
 *
 * Since KiCad sends no credential for the files, the manifest (read with the
 * caller's own credential) hands out download URLs carrying a capability: a
 * digest of the file's kind, id and content (as the datasheet links of decision
 * 0639). It opens that one file as it is now, on every server sharing the
 * database and after a restart; an edit of the file ends it.
 */
/** The most KiCad fetches for one part: one symbol and the component's footprints, 4 MiB each at most. */
const MAX_DOWNLOAD_BYTES = 21 * 4 * 1024 * 1024

const KINDS = {
  symbol: { plural: 'symbols', title: 'Symbol', mime: 'application/x-kicad-symbol' },
  footprint: { plural: 'footprints', title: 'Footprint', mime: 'application/x-kicad-footprint' },
} as const
type Kind = keyof typeof KINDS

/** The discovery document, as REMOTE_PROVIDER_METADATA::FromJson reads it (common/remote_provider_metadata.cpp). */
export const RemoteProviderMetadata = z
  .object({
    provider_name: z.string().min(1),
    provider_version: z.string().min(1),
    api_base_url: z.string().min(1),
    panel_url: z.string().min(1),
    allow_insecure_localhost: z.boolean(),
    auth: z.object({ type: z.literal('none') }),
    capabilities: z.object({ web_ui_v1: z.literal(true), parts_v1: z.literal(true), direct_downloads_v1: z.literal(true), inline_payloads_v1: z.literal(false) }),
    max_download_bytes: z.int().min(1),
    supported_asset_types: z.array(z.enum(['symbol', 'footprint'])).min(1),
    parts: z.object({ endpoint_template: z.string().regex(/^\//) }),
    documentation_url: z.string().min(1),
  })
  .meta({ id: 'KicadRemoteProviderMetadata' })

/** One file of a part, as REMOTE_PROVIDER_PART_MANIFEST::FromJson reads it (common/remote_provider_models.cpp). */
const RemoteAsset = z
  .object({
    asset_type: z.enum(['symbol', 'footprint']),
    name: z.string().min(1),
    target_library: z.string(),
    target_name: z.string(),
    content_type: z.enum([KINDS.symbol.mime, KINDS.footprint.mime]),
    size_bytes: z.int().min(1),
    sha256: z.string().regex(/^[a-f0-9]{64}$/),
    download_url: z.string().min(1),
    required: z.boolean(),
  })
  .meta({ id: 'KicadRemoteAsset' })

/** A part: what the panel page posts to KiCad as the parameters of `PLACE_COMPONENT`. */
export const RemotePartManifest = z
  .object({ part_id: z.string().min(1), display_name: z.string().min(1), summary: z.string(), assets: z.array(RemoteAsset).min(1) })
  .meta({ id: 'KicadRemotePartManifest' })

const BASE = '/api/kicad-remote'
const API = `${BASE}/v1`

const metadataRoute = defineRoute({
  method: 'GET',
  path: `${BASE}/.well-known/kicad-remote-provider`,
  group: 'kicad',
  operationId: 'kicadRemoteProvider',
  // KiCad reads it with no credential; it says only where the panel and the API are.
  permission: 'public',
  summary: 'KiCad remote symbol panel: the provider document KiCad discovers',
  description: 'Give KiCad 10 (Schematic Editor → Remote Symbols → Configure) the provider URL `<server>/api/kicad-remote`.',
  responses: { 200: { description: 'Provider metadata', schema: RemoteProviderMetadata } },
  handler: ({ url }) => ({
    provider_name: 'complib',
    provider_version: '1',
    api_base_url: `${url.origin}${API}`,
    panel_url: `${url.origin}${API}/panel`,
    // KiCad takes plain http only from these three names (IsLoopbackHost, common/remote_provider_utils.cpp).
    allow_insecure_localhost: url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname),
    auth: { type: 'none' as const },
    capabilities: { web_ui_v1: true as const, parts_v1: true as const, direct_downloads_v1: true as const, inline_payloads_v1: false as const },
    max_download_bytes: MAX_DOWNLOAD_BYTES,
    supported_asset_types: ['symbol' as const, 'footprint' as const],
    parts: { endpoint_template: '/parts/{part_id}' },
    documentation_url: `${url.origin}/api/docs/ui`,
  }),
})

const partRoute = defineRoute({
  method: 'GET',
  path: `${API}/parts/{part_id}`,
  group: 'kicad',
  operationId: 'kicadRemotePart',
  permission: 'library:read',
  summary: 'KiCad remote symbol panel: a component as a part manifest',
  description:
    'The component’s first symbol and its footprints that have a file, each with a download URL that works without a credential ' +
    'until the file changes. A symbol file that does not hold the symbol by its name is left out (KiCad would refuse it). ' +
    '409 when nothing is left.',
  params: z.object({ part_id: idSchema('component') }),
  errors: ['CONFLICT'],
  responses: { 200: { description: 'The manifest', schema: RemotePartManifest } },
  handler: async ({ params, services, url }) => {
    const c = await services.storage.components.get(params.part_id)
    const assets: z.infer<typeof RemoteAsset>[] = []
    const symbol = c.symbols[0] ? await _asset(services.storage, 'symbol', c.symbols[0].id, url.origin) : undefined
    if (symbol) assets.push(symbol)
    for (const f of c.footprints) {
      const footprint = await _asset(services.storage, 'footprint', f.id, url.origin)
      if (footprint) assets.push(footprint)
    }
    if (assets.length === 0) throw new ComplibError('CONFLICT', `${c.id} has no symbol or footprint file KiCad can take (a symbol file must hold the symbol by its name)`)
    return { part_id: c.id, display_name: c.ipn ? `${c.ipn} ${c.name}` : c.name, summary: c.description ?? '', assets }
  },
})


function assetRoute(kind: Kind): AnyRoute {
  const k = KINDS[kind]
  return defineRoute({
    method: 'GET',
    path: `${API}/assets/${k.plural}/{id}/{capability}`,
    group: 'kicad',
    operationId: `kicadRemote${k.title}Asset`,
    // KiCad fetches it with no credential (remote_symbol_download_manager.cpp): the capability in a manifest's URL is the credential.
    permission: 'public',
    summary: `KiCad remote symbol panel: a ${kind} file by the capability URL of a part manifest`,
    description: '403 when the capability is not this file\'s as it is now (a changed file needs a new manifest).',
    params: z.object({ id: idSchema(kind), capability: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'expected the 43 characters of a download URL' }) }),
    errors: ['FORBIDDEN'],
    responses: { 200: { description: 'The file, as stored', contentType: k.mime } },
    handler: async ({ params, services }) => {
      const file = await services.storage[k.plural].getFile(params.id)
      const expected = Buffer.from(_capability(kind, params.id, _sha256(Buffer.from(file.content, 'utf8'))))
      const given = Buffer.from(params.capability)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ComplibError('FORBIDDEN', 'capability: not a download URL of this file as it is now; ask for the part again')
      // Exactly the manifest's content_type: KiCad compares the header as a whole string.
      return new Response(file.content, { headers: { ...downloadHeaders(k.mime), 'cache-control': 'no-store' } })
    },
  })
}

/** The manifest entry of one stored file, or undefined when there is no file KiCad would take. */
async function _asset(storage: Storage, kind: Kind, id: string, origin: string): Promise<z.infer<typeof RemoteAsset> | undefined> {
  const item = await storage[KINDS[kind].plural].get(id)
  if (!item.fileName) return undefined
  const { content, fileName } = await storage[KINDS[kind].plural].getFile(id)
  const bytes = Buffer.from(content, 'utf8')
  if (bytes.length === 0) return undefined
  if (kind === 'symbol' && !(content.includes('(kicad_symbol_lib') && content.includes(`(symbol "${item.name}"`))) return undefined
  const sha256 = _sha256(bytes)
  return {
    asset_type: kind,
    name: fileName,
    // KiCad writes a symbol asset as the whole file `<prefix>_<target_library>.kicad_sym`: one library per symbol, so a second download cannot replace the first.
    target_library: kind === 'symbol' && item.library ? `${item.library}-${item.name}` : (item.library ?? ''),
    target_name: item.name,
    content_type: KINDS[kind].mime,
    size_bytes: bytes.length,
    sha256,
    download_url: `${origin}${API}/assets/${KINDS[kind].plural}/${id}/${_capability(kind, id, sha256)}`,
    required: kind === 'symbol',
  }
}

function _sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * A download URL's capability: who can form it already holds the file (its
 * digest) and knows its id. No key is kept, so every server sharing the
 * database answers it, before and after a restart.
 */
function _capability(kind: Kind, id: string, sha256: string): string {
  return createHash('sha256').update(`complib kicad remote ${kind}\0${id}\0${sha256}`).digest('base64url')
}

/**
 * The panel's script: KiCad's side of the conversation is
 * eeschema/widgets/panel_remote_symbol.cpp (beginSessionHandshake, handleRpcMessage).
 * Plain text, hashed into the page's Content-Security-Policy below.
 */
export const PANEL_SCRIPT = `(function () {
  'use strict';
  var session = null, next = 0;
  function $(id) { return document.getElementById(id); }
  function say(text) { $('status').textContent = text; }
  window.kiclient = {
    postMessage: function (text) {
      var m;
      try { m = JSON.parse(text); } catch (e) { return; }
      if (m.command === 'NEW_SESSION' && m.response_to === undefined) {
        session = m.session_id;
        say('Connected to ' + ((m.parameters && m.parameters.client_name) || 'KiCad') + ' ' + ((m.parameters && m.parameters.client_version) || ''));
      } else if (m.status === 'ERROR') {
        say('KiCad: ' + (m.error_message || m.error_code));
      } else if (m.command === 'PLACE_COMPONENT' && m.response_to !== undefined) {
        say('KiCad took the part: place it in the schematic.');
      }
    }
  };
  function send(command, parameters) {
    if (!session || !window.kicad) { say('Open this page from KiCad\\u2019s Remote Symbols panel.'); return false; }
    window.kicad.postMessage(JSON.stringify({ version: 1, session_id: session, message_id: ++next, command: command, parameters: parameters }));
    return true;
  }
  function place(id) {
    return fetch('${API}/parts/' + encodeURIComponent(id), { credentials: 'same-origin' }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) { say(body.detail || ('HTTP ' + res.status)); return; }
        if (send('PLACE_COMPONENT', body)) say('Sent ' + body.display_name + ' to KiCad\\u2026');
      });
    });
  }
  function search() {
    var q = $('q').value.trim();
    return fetch('/api/components?limit=50' + (q ? '&q=' + encodeURIComponent(q) : ''), { credentials: 'same-origin' }).then(function (res) {
      if (res.status === 401) { $('login').hidden = false; say('Sign in to complib.'); return; }
      return res.json().then(function (items) {
        if (!res.ok) { say(items.detail || ('HTTP ' + res.status)); return; }
        var list = $('results');
        list.textContent = '';
        items.forEach(function (c) {
          var li = document.createElement('li');
          var button = document.createElement('button');
          button.textContent = 'Place';
          button.disabled = c.symbols.length === 0;
          button.addEventListener('click', function () { place(c.id); });
          li.appendChild(button);
          li.appendChild(document.createTextNode(' ' + (c.ipn ? c.ipn + ' ' : '') + c.name + (c.description ? ' \\u2014 ' + c.description : '')));
          list.appendChild(li);
        });
        say(items.length + (items.length === 1 ? ' component' : ' components'));
      });
    });
  }
  function signIn(event) {
    event.preventDefault();
    return fetch('/api/auth/login', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: $('user').value, password: $('password').value }) }).then(function (res) {
      if (!res.ok) return res.json().then(function (body) { say(body.detail || ('HTTP ' + res.status)); });
      $('login').hidden = true;
      return search();
    });
  }
  $('search').addEventListener('submit', function (event) { event.preventDefault(); search(); });
  $('login').addEventListener('submit', signIn);
  window.complibPanel = { search: search, place: place };
})();`

const PANEL_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>complib</title>
<style>body{font-family:system-ui,sans-serif;margin:8px}li{margin:4px 0;list-style:none}ul{padding:0}</style></head>
<body>
<form id="search"><input id="q" type="search" placeholder="Search components" autofocus> <button>Search</button></form>
<form id="login" hidden><input id="user" autocomplete="username" placeholder="User"> <input id="password" type="password" autocomplete="current-password" placeholder="Password"> <button>Sign in</button></form>
<p id="status">Waiting for KiCad…</p>
<ul id="results"></ul>
<script>${PANEL_SCRIPT}</script>
</body></html>
`

/** Only this server, and only the script above (by its hash): the page runs inside KiCad. */
export const PANEL_CSP =
  `default-src 'none'; script-src 'sha256-${createHash('sha256').update(PANEL_SCRIPT).digest('base64')}'; style-src 'unsafe-inline'; connect-src 'self'; ` +
  "form-action 'none'; base-uri 'none'"

const panelRoute = defineRoute({
  method: 'GET',
  path: `${API}/panel`,
  group: 'kicad',
  operationId: 'kicadRemotePanel',
  // The page holds no data: it asks the API with the web view's own sign-in.
  permission: 'public',
  summary: 'KiCad remote symbol panel: the page KiCad shows (search, sign in, place)',
  responses: { 200: { description: 'The page', contentType: 'text/html' } },
  // KiCad shows it as the top page of its web view, never in a frame: refusing framing changes nothing there.
  handler: () => new Response(PANEL_HTML, { headers: htmlPageHeaders(PANEL_CSP) }),
})

export const kicadRemoteRoutes: AnyRoute[] = [metadataRoute, panelRoute, partRoute, assetRoute('symbol'), assetRoute('footprint')]
