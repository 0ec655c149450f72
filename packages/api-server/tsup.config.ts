import { cpSync, rmSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'tsup'
import { ensureWebBuilt } from '../web/scripts/ensure-built.mjs'

const webDist = fileURLToPath(new URL('../web/dist', import.meta.url))
const ownWeb = fileURLToPath(new URL('./dist/web', import.meta.url))

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  // The published server carries the web interface: packages/web's bundle (built
  // here when missing or stale) copied into dist/web, where src/http/web-ui.ts
  // looks first. @complib/web stays private: it is a build input, not a runtime
  // dependency (decision 1402).
  async onSuccess() {
    ensureWebBuilt({ quiet: true })
    rmSync(ownWeb, { recursive: true, force: true })
    // Vite's manifest (.vite/) is for the bundle-size test, not for the browser.
    cpSync(webDist, ownWeb, { recursive: true, filter: (src) => !relative(webDist, src).startsWith('.vite') })
  },
})
