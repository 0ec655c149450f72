import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { htmlPageHeaders } from './page-headers'

/** Content types of what Vite writes into the web bundle. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

/**
 * What the page may load and where it may send: only this server (no CDN,
 * nothing from the internet); inline styles because CodeMirror sets them.
 */
const PAGE_HEADERS = {
  ...htmlPageHeaders("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'"),
  'referrer-policy': 'same-origin',
}

export interface WebUi {
  /** The answer for a GET/HEAD of a path outside /api, or undefined when the bundle has no such file. */
  serve(pathname: string, head: boolean): Promise<Response | undefined>
}

/**
 * Serves the web interface (packages/web, built by Vite) from `dir`: files by
 * path, `index.html` for `/`. Hashed files under `assets/` are cached for
 * good; the page itself is revalidated, so a new build shows at once.
 * When the bundle is missing, `/` says how to build it.
 */
export function createWebUi(dir: string | undefined = findWebDir()): WebUi {
  return {
    async serve(pathname, head) {
      if (!dir || !existsSync(join(dir, 'index.html'))) {
        if (pathname !== '/' && pathname !== '/index.html') return undefined
        return new Response(
          head ? null : 'The complib web interface is not built. `npm start` builds it; or run `pnpm --filter @complib/web build`. The API is under /api (reference: /api/docs/ui).\n',
          { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '10' } },
        )
      }
      const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '')
      const file = normalize(join(dir, relative))
      // No way out of the bundle's folder (`/../`, encoded or not).
      if (!file.startsWith(dir + sep) || relative.includes('\0')) return undefined
      const info = await stat(file).catch(() => undefined)
      if (!info?.isFile()) return undefined
      const immutable = relative.startsWith('assets/')
      const headers: Record<string, string> = {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': String(info.size),
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        ...(extname(file) === '.html' ? PAGE_HEADERS : { 'x-content-type-options': 'nosniff' }),
      }
      return new Response(head ? null : await readFile(file), { headers })
    },
  }
}

/**
 * Where the built web interface is: `dist/web` beside a built server, else
 * the workspace's `packages/web/dist` (a server run from source).
 */
export function findWebDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates = [join(here, 'web'), join(here, '../../../web/dist'), join(here, '../../web/dist')]
  return candidates.map((c) => normalize(c)).find((c) => existsSync(join(c, 'index.html'))) ?? normalize(candidates[1]!)
}
