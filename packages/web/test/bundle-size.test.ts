import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, it } from 'vitest'
import { ensureWebBuilt } from '../scripts/ensure-built.mjs'

/** The bar on the JavaScript the page loads before its first screen, gzipped (decision 1403). */
const LIMIT_BYTES = 250 * 1024

it('keeps the initial JavaScript under 250 KB gzipped (screens past the library load on demand)', () => {
  ensureWebBuilt({ quiet: true })
  const dist = join(import.meta.dirname, '../dist')
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; isEntry?: boolean; imports?: string[] }>
  // The entry and what it imports statically: what index.html makes the browser fetch at once.
  const initial = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || initial.has(chunk.file)) return
    initial.add(chunk.file)
    for (const i of chunk.imports ?? []) visit(i)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key)
  const sizes = [...initial].filter((f) => f.endsWith('.js')).map((f) => ({ file: f, gzip: gzipSync(readFileSync(join(dist, f)), { level: 9 }).length }))
  const total = sizes.reduce((n, s) => n + s.gzip, 0)
  console.log(`[web] initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${sizes.map((s) => `${s.file} ${(s.gzip / 1024).toFixed(1)} KB`).join(', ')})`)
  expect(sizes.length).toBeGreaterThan(0)
  expect(total).toBeLessThan(LIMIT_BYTES)
  for (const s of sizes) {
    const code = readFileSync(join(dist, s.file), 'utf8')
    // CodeMirror stays out of it: it loads with the connector screen.
    expect(code).not.toContain('cm-editor')
    // React's production build (a build run with NODE_ENV=test bundled the development one).
    expect(code).not.toContain('jsxDEV')
  }
})
