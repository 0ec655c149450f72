import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ComplibError } from '@complib/core'
import * as z from 'zod'
import { htmlPageHeaders } from '../http/page-headers'
import { defineRoute } from '../routing/define-route'

// Served from the installed swagger-ui-dist package: no CDN, works offline.
const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const
type Asset = keyof typeof ASSETS

/**
 * Starts the reference. `validatorUrl: null`: Swagger UI would otherwise load a
 * badge from validator.swagger.io, which the page's policy does not allow (and
 * the reference works offline). Plain text, hashed into the policy below.
 */
export const DOCS_UI_SCRIPT = `
    window.ui = SwaggerUIBundle({
      url: '/api/docs',
      dom_id: '#reference',
      deepLinking: true,
      tryItOutEnabled: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    })
  `

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>complib API reference</title>
  <link rel="stylesheet" href="/api/docs/ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/ui/favicon-32x32.png">
</head>
<body>
  <div id="reference"></div>
  <script src="/api/docs/ui/swagger-ui-bundle.js"></script>
  <script src="/api/docs/ui/swagger-ui-standalone-preset.js"></script>
  <script>${DOCS_UI_SCRIPT}</script>
</body>
</html>`

/**
 * Only this server: its own scripts and the one above (by its hash); inline
 * styles and data: images because Swagger UI sets and embeds them; "Try it
 * out" sends to this server only. Framing is refused by htmlPageHeaders.
 */
const POLICY =
  `default-src 'self'; script-src 'self' 'sha256-${createHash('sha256').update(DOCS_UI_SCRIPT).digest('base64')}'; ` +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'"

const cache = new Map<Asset, Uint8Array>()

export const docsUiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/docs/ui',
    group: 'system',
    operationId: 'getApiReference',
    permission: 'account',
    summary: 'Interactive API reference (served locally)',
    responses: { 200: { description: 'An HTML page that loads /api/docs', contentType: 'text/html' } },
    handler: () => new Response(PAGE, { headers: htmlPageHeaders(POLICY) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/docs/ui/{asset}',
    group: 'system',
    operationId: 'getApiReferenceAsset',
    permission: 'account',
    summary: 'A script, style sheet or icon of the API reference',
    params: z.object({ asset: z.enum(Object.keys(ASSETS) as [Asset, ...Asset[]]) }),
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
    handler: async ({ params }) => {
      let bytes = cache.get(params.asset)
      if (!bytes) {
        bytes = await readFile(join(_assetDir(), params.asset)).catch((error: unknown) => {
          throw new ComplibError('SERVICE_UNAVAILABLE', 'the API reference files are not installed (swagger-ui-dist)', { cause: error })
        })
        cache.set(params.asset, bytes)
      }
      return new Response(bytes, { headers: { 'content-type': ASSETS[params.asset], 'cache-control': 'public, max-age=86400' } })
    },
  }),
]

function _assetDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
}
