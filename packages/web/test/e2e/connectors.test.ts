import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, screenshot, startE2E, type E2E } from './harness'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** A webhook receiver on loopback that takes its time with each batch, so a run lasts long enough to watch. */
async function startSlowReceiver(delayMs: number) {
  const batches: number[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { entities: unknown[] }
      setTimeout(() => {
        batches.push(body.entities.length)
        res.writeHead(202).end()
      }, delayMs)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/components`,
    batches,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

describe.skipIf(!browserAvailable())('connectors screen in Chromium', () => {
  let e: E2E
  let receiver: Awaited<ReturnType<typeof startSlowReceiver>>
  beforeAll(async () => {
    e = await startE2E()
    receiver = await startSlowReceiver(400)
    for (let i = 0; i < 1000; i++) await e.server.storage.components.create({ name: `C ${i}` })
  })
  afterAll(async () => {
    await receiver?.close()
    await e?.close()
  })

  it('creates a connector with a schedule shown in words and a masked secret', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/connectors`)
    await expect.poll(() => page.getByText('No connectors yet').isVisible()).toBe(true)
    await page.getByRole('link', { name: 'New connector' }).click()
    await page.getByLabel('Name').fill('ERP')
    await page.getByLabel('Receiver URL').fill(receiver.url)
    await page.getByLabel('Concurrency').fill('1')
    await page.getByLabel('Requests per second').fill('100')
    await page.getByLabel('Schedule (cron, optional)').fill('0 */6 * * *')
    expect(await page.locator('#cron-words').textContent()).toBe('every 6 hours, at minute 0')
    await page.getByLabel('Secret (optional)').fill(SECRET)
    await page.getByRole('button', { name: 'Create connector' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('ERP')
    await expect.poll(() => page.locator('#cron-words').textContent()).toMatch(/^every 6 hours, at minute 0 Next run in \d+ (hours?|minutes?)/)
    expect(await page.locator('main').textContent()).not.toContain(SECRET.slice(6))
    expect(await page.getByText('whsec_…LaSw').isVisible()).toBe(true)
  })

  it('edits the code in the editor, and a dry run shows what would be sent and the logs', async () => {
    const { page } = e
    const editor = page.locator('.cm-content')
    await editor.click()
    await page.keyboard.press('Control+Home')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await page.keyboard.type("helpers.log('sending ' + entities.length")
    await page.getByRole('button', { name: 'Save code' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Code saved.')
    await page.getByRole('button', { name: 'Dry run' }).click()
    await expect.poll(() => page.getByLabel('Dry run logs').textContent()).toContain('sending 3')
    expect(await page.locator('.dry-run table').textContent()).toContain(receiver.url)
    expect(receiver.batches).toEqual([])
    await expectAccessible(page, 'connector')
    await screenshot(page, 'connector-dry-run')
  })

  it('pushes now and shows live progress until the run succeeds at the receiver', async () => {
    const { page } = e
    // Every value the "batches done" figure takes, as the page shows it.
    await page.evaluate(() => {
      const seen: string[] = ((globalThis as unknown as { __seen: string[] }).__seen = [])
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid=batches-done]')?.textContent
        if (text && seen.at(-1) !== text) seen.push(text)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await page.getByRole('button', { name: 'Push now' }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Cancel the run' }).isVisible()).toBe(true)
    await screenshot(page, 'connector-push-live')
    await expect.poll(() => page.locator('.live strong').textContent(), { timeout: 20_000 }).toBe('succeeded')
    expect(await page.getByTestId('entities-sent').textContent()).toBe('1,000 / 1,000')
    const seen = await page.evaluate(() => (globalThis as unknown as { __seen: string[] }).__seen)
    // Progress arrived while the run went, not only at its end.
    expect(seen.some((s) => /^[123] \/ 4$/.test(s)), seen.join(' | ')).toBe(true)
    expect(seen.at(-1)).toBe('4 / 4')
    expect(receiver.batches.reduce((a, b) => a + b, 0)).toBe(1000)
  })

  it('lists the run with its batches and attempts', async () => {
    const { page } = e
    const run = page.locator('.runs details').first()
    await expect.poll(() => run.locator('summary').textContent()).toMatch(/^succeeded · manual/)
    await run.locator('summary').click()
    await expect.poll(() => run.locator('tbody tr').count()).toBe(4)
    expect(await run.locator('tbody tr').first().textContent()).toMatch(/^1succeeded250 \/ 250202 in \d+ ms/)
    await expectAccessible(page, 'connector runs')
    await screenshot(page, 'connector-runs')
  })

  it('the connectors list shows the schedule and the next run in words', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/connectors`)
    await expect.poll(() => page.locator('tbody tr').first().textContent()).toMatch(/ERP.*every 6 hours, at minute 0in \d+/)
    await expectAccessible(page, 'connectors')
    await screenshot(page, 'connectors')
  })
})
