import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, startE2E, type E2E } from './harness'

/** A webhook receiver on loopback that answers each batch after `delayMs`, so a run lasts long enough to watch. */
async function startReceiver(delayMs: number) {
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => setTimeout(() => res.writeHead(202).end(), delayMs))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

/**
 * What the screens say, said right: counts with their singular (decision
 * 1418), a push's progress in view when it starts, and the parts KiCad lists
 * but cannot place (decision 1417).
 */
describe.skipIf(!browserAvailable())('small truths in Chromium', () => {
  let e: E2E
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let resistorId: string
  let connectorId: string
  beforeAll(async () => {
    e = await startE2E()
    receiver = await startReceiver(600)
    const storage = e.server.storage
    const symbol = await storage.symbols.create({ name: 'Amplifier_Operational:TL072' })
    const resistor = await storage.components.create({ name: 'Resistor 10k', ipn: 'R-0001', category: 'Resistors' })
    await storage.components.create({ name: 'Dual op amp', ipn: 'U-0001', category: 'Amplifiers', symbols: [symbol.id] })
    // No category: KiCad does not list it, so it is not named as unplaceable either.
    await storage.components.create({ name: 'Loose part', ipn: 'X-0001' })
    resistorId = resistor.id
    const bin = await storage.locations.create({ name: 'Bin A' })
    await storage.locations.setStock(resistor.id, bin.id, 25)
    const res = await fetch(`${e.base}/api/connectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ERP', enabled: true, config: { url: receiver.url, requestsPerSecond: 100, concurrency: 1, cron: null } }),
    })
    expect(res.status).toBe(201)
    connectorId = ((await res.json()) as { id: string }).id
  })
  afterAll(async () => {
    await receiver?.close()
    await e?.close()
  })

  it('the KiCad screen names the parts KiCad lists without a symbol, and counts in the singular', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/kicad`)
    const section = page.getByRole('region', { name: 'Without a symbol' })
    await expect.poll(() => section.textContent()).toContain('KiCad lists 1 part that it cannot place: it has no symbol.')
    expect(await section.getByRole('listitem').allTextContents()).toEqual(['R-0001 Resistor 10k · Resistors'])
    expect(await section.getByRole('link', { name: 'R-0001' }).getAttribute('href')).toBe(`#/components/${resistorId}`)
    expect(await page.getByText('2 categories.').isVisible()).toBe(true)
    await expectAccessible(page, 'KiCad')
  })

  it('says "1 component" where there is one', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/locations`)
    await page.getByRole('button', { name: 'Bin A' }).click()
    await expect.poll(() => page.getByText(/pieces/).textContent()).toBe('1 component, 25 pieces.')
  })

  it('brings a push’s progress into view when it starts, and the run says "1/1 batch"', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/connectors/${connectorId}`)
    const push = page.getByRole('button', { name: 'Push now' })
    await push.waitFor()
    // As a person finds it: scrolled just far enough to see the button, at the bottom of the window.
    await push.evaluate((b) => b.scrollIntoView({ block: 'end' }))
    await push.click()
    const live = page.locator('.live')
    await live.waitFor()
    await expect
      .poll(() => live.evaluate((el) => ({ top: el.getBoundingClientRect().top >= 0, bottom: el.getBoundingClientRect().bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight })))
      .toEqual({ top: true, bottom: true })
    await expect.poll(() => page.locator('.live strong').textContent(), { timeout: 20_000 }).toBe('succeeded')
    await expect.poll(() => page.locator('.runs summary').first().textContent()).toMatch(/· 1\/1 batch, 3 components sent$/)
  })
})
