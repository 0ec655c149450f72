import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, startE2E, type E2E } from './harness'

/** The Content-Security-Policy violations a page reports, gathered in the page itself (its own policy stays on). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    type Violation = { effectiveDirective: string; blockedURI: string }
    const page = globalThis as unknown as { __violations: string[]; addEventListener(type: string, listener: (v: Violation) => void): void }
    page.__violations = []
    page.addEventListener('securitypolicyviolation', (v) => page.__violations.push(`${v.effectiveDirective} ${v.blockedURI}`))
  })
  return () => page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations)
}

/**
 * The HTML pages refuse framing by another site (decision 1012), and their
 * policies still let their own scripts and styles run: the API reference
 * renders and answers "Try it out"; the KiCad panel's script starts.
 */
describe.skipIf(!browserAvailable())('HTML pages in Chromium: framing refused, the pages still work', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
  })
  afterAll(async () => {
    await e?.close()
  })

  it('the API reference renders its operations and runs a request with no policy violation', async () => {
    const violations = await watchViolations(e.page)
    await e.page.goto(`${e.base}/api/docs/ui`)
    await e.page.locator('.opblock-summary-path', { hasText: '/api/health' }).first().click({ noWaitAfter: true, timeout: 30_000 })
    await e.page.getByRole('button', { name: 'Execute' }).first().click({ noWaitAfter: true, timeout: 30_000 })
    await expect.poll(() => e.page.locator('.live-responses-table .response .response-col_status').first().textContent(), { timeout: 30_000 }).toContain('200')
    expect(await violations()).toEqual([])
  })

  it('the KiCad panel page runs its script under its policy', async () => {
    const violations = await watchViolations(e.page)
    await e.page.goto(`${e.base}/api/kicad-remote/v1/panel`)
    await expect.poll(() => e.page.evaluate(() => typeof (globalThis as unknown as { complibPanel?: unknown }).complibPanel)).toBe('object')
    expect(await violations()).toEqual([])
  })

  it('a page on another site cannot show the reference, the panel or the web interface in a frame', async () => {
    // Another origin on loopback too (Chromium's local-network checks would stop a page from elsewhere before any header is read).
    const framing = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').searchParams.get('path') ?? '/'
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><iframe src="${e.base}${path}" onload="window.framed = true"></iframe>`)
    })
    await new Promise<void>((r) => framing.listen(0, '127.0.0.1', () => r()))
    const foreign = `http://127.0.0.1:${(framing.address() as AddressInfo).port}`
    const seen: Record<string, string> = {}
    try {
      // JSON is no page and carries no policy: it shows, so a refusal below is the pages' own headers.
      for (const path of ['/api/health', '/api/docs/ui', '/api/kicad-remote/v1/panel', '/']) {
        const answered = e.page.waitForResponse(`${e.base}${path}`)
        await e.page.goto(`${foreign}/?path=${encodeURIComponent(path)}`)
        expect((await answered).status(), path).toBe(200)
        await e.page.waitForFunction(() => (globalThis as unknown as { framed?: boolean }).framed === true)
        const frame = e.page.frames().find((f) => f !== e.page.mainFrame())!
        // A refused frame holds Chromium's error page, not the server's answer.
        seen[path] = frame.url().startsWith(e.base) ? 'shown' : 'refused'
      }
    } finally {
      await new Promise((r) => framing.close(r))
    }
    expect(seen).toEqual({ '/api/health': 'shown', '/api/docs/ui': 'refused', '/api/kicad-remote/v1/panel': 'refused', '/': 'refused' })
  })
})
