import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer, type RunningServer } from '@complib/api-server'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { expect } from 'vitest'
import { ensureWebBuilt } from '../../scripts/ensure-built.mjs'

/** Debian's Chromium (apt-get install -y chromium); Playwright's own browser download is not used. */
export const CHROMIUM = process.env.COMPLIB_CHROMIUM ?? '/usr/bin/chromium'
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '../../../..')

/**
 * Whether the browser tests should run (`describe.skipIf(!browserAvailable())`).
 * Without Chromium they are skipped with the reason, except under CI=true,
 * where they run and fail in startE2E, saying the browser is missing.
 */
export function browserAvailable(): boolean {
  const ok = existsSync(CHROMIUM)
  if (!ok && process.env.CI !== 'true') console.warn(`[web e2e] skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set COMPLIB_CHROMIUM)`)
  // Under CI=true the suites run anyway, and startE2E fails them saying the browser is missing.
  return ok || process.env.CI === 'true'
}

export interface E2E {
  server: RunningServer
  browser: Browser
  context: BrowserContext
  page: Page
  base: string
  close(): Promise<void>
}

/** A fresh library served by the real server (static page + API) and a Chromium page on it. */
export async function startE2E(options: { apiKey?: string } = {}): Promise<E2E> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: CI=true needs it (apt-get install -y chromium)`)
  ensureWebBuilt({ quiet: true })
  const data = mkdtempSync(join(tmpdir(), 'complib-web-e2e-'))
  const server = await startServer({ port: 0, dataDir: data, apiKey: options.apiKey, log: () => {} })
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } })
  // A step that cannot happen fails in seconds, naming the step, not at the test's timeout.
  context.setDefaultTimeout(10_000)
  const page = await context.newPage()
  page.on('dialog', (d) => void d.accept())
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return {
    server,
    browser,
    context,
    page,
    base: server.url,
    async close() {
      await browser.close()
      await server.close()
      rmSync(data, { recursive: true, force: true })
      expect(errors, 'uncaught errors in the page').toEqual([])
    },
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * Runs axe-core in the page (through the DevTools protocol, so the page's
 * Content-Security-Policy stays on) and fails on a serious or critical violation.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(axeSource)
  const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run: (o: unknown) => Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }))) as {
    violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>
  }
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3).join(', ')})`)
  expect(bad, `axe on the ${screen} screen`).toEqual([])
}

/**
 * A screenshot of a screen: into docs/screenshots/ (linked from the README)
 * when COMPLIB_SCREENSHOTS=1, else into a temporary folder (taken all the
 * same, so a screen that cannot render fails here too).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.COMPLIB_SCREENSHOTS === '1' ? join(repo, 'docs/screenshots') : join(tmpdir(), 'complib-web-screenshots')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`) })
}
