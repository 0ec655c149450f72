import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createId } from '@complib/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, startE2E, type E2E } from './harness'

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/**
 * A webhook receiver on loopback that holds every request until `release()`;
 * after that it answers at once. `ids` are the components it acknowledged.
 */
async function startHoldingReceiver() {
  const ids: string[] = []
  const held: Array<() => void> = []
  let holding = true
  let seen = 0
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen++
      const answer = () => {
        if (res.destroyed) return
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { entities: Array<{ id: string }> }
        ids.push(...body.entities.map((x) => x.id))
        res.writeHead(202).end()
      }
      if (holding) held.push(answer)
      else answer()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/components`,
    ids,
    /** Requests that reached the receiver, answered or not. */
    seen: () => seen,
    release() {
      holding = false
      for (const answer of held.splice(0)) answer()
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  }
}

describe.skipIf(!browserAvailable())('connector runs and secret in Chromium: cancel, resume, rotate', () => {
  let e: E2E
  let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>
  let connectorId: string
  let componentIds: string[]
  beforeAll(async () => {
    e = await startE2E()
    receiver = await startHoldingReceiver()
    componentIds = []
    for (let i = 0; i < 600; i++) componentIds.push((await e.server.storage.components.create({ name: `U ${i}` })).id)
    const res = await fetch(`${e.base}/api/connectors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ERP', config: { url: receiver.url, concurrency: 1, requestsPerSecond: 100 }, secret: SECRET }),
    })
    expect(res.status).toBe(201)
    connectorId = ((await res.json()) as { id: string }).id
  })
  afterAll(async () => {
    await receiver?.close()
    await e?.close()
  })

  it('cancels a run while the receiver holds its first batch; the run ends cancelled and is not offered a resume', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/connectors/${connectorId}`)
    await page.getByRole('button', { name: 'Push now' }).click()
    await expect.poll(() => receiver.seen()).toBe(1)
    await expect.poll(() => page.locator('.live strong').textContent()).toBe('running')
    await page.getByRole('button', { name: 'Cancel the run' }).click()
    await expect.poll(() => page.locator('.live strong').textContent()).toBe('cancelled')
    expect(await page.getByRole('button', { name: 'Cancel the run' }).count()).toBe(0)
    const run = page.locator('.runs details').first()
    await expect.poll(() => run.locator('summary').textContent()).toMatch(/^cancelled · manual/)
    await run.locator('summary').click()
    // Only a run a stopped server left unfinished can be resumed; a cancelled one is pushed again.
    expect(await run.getByRole('button', { name: 'Resume' }).count()).toBe(0)
    receiver.release()
    expect(receiver.ids.length).toBeLessThan(600)
  })

  it('resumes a run a stopped server left unfinished, and it runs to success', async () => {
    const { page } = e
    const before = receiver.ids.length
    // What a server stopped mid-run leaves: a run stored as queued that no runner is executing
    // (startServer resumes such runs itself; here the run is stored behind its back).
    const batches = [0, 250, 500].map((from) => ({ webhookId: createId('message'), ids: componentIds.slice(from, from + 250) }))
    const stored = await e.server.storage.runs.create({ connectorId, trigger: 'manual', batches })
    await page.reload()
    const run = page.locator('.runs details').first()
    await expect.poll(() => run.locator('summary').textContent()).toMatch(/^queued · manual/)
    await run.locator('summary').click()
    await expect.poll(() => run.getByText(stored.id, { exact: true }).isVisible()).toBe(true)
    await run.getByRole('button', { name: 'Resume' }).click()
    // The list follows the run until it ends.
    await expect.poll(() => run.locator('summary').textContent(), { timeout: 20_000 }).toMatch(/^succeeded · manual · .* 3\/3 batches, 600 components sent/)
    expect(receiver.ids.slice(before).sort()).toEqual([...componentIds].sort())
    await expectAccessible(page, 'connector runs after a resume')
  })

  it('shows a run\'s first 100 batches and reads more on demand', async () => {
    const { page } = e
    // A finished run of 130 batches, stored as the runner would leave it (no runner picks up a failed run).
    const stored = await e.server.storage.runs.create({ connectorId, trigger: 'manual', batches: Array.from({ length: 130 }, (_, i) => ({ webhookId: createId('message'), ids: [componentIds[i % componentIds.length]!] })) })
    await e.server.storage.runs.update(stored.id, { status: 'failed', error: 'the receiver went away', finishedAt: new Date().toISOString() })
    await page.reload()
    const run = page.locator('.runs details').first()
    await expect.poll(() => run.locator('summary').textContent()).toMatch(/^failed · manual · .* 0\/130 batches/)
    await run.locator('summary').click()
    await expect.poll(() => run.locator('tbody tr').count()).toBe(100)
    await run.getByRole('button', { name: 'Show more batches (100 of 130 shown)' }).click()
    await expect.poll(() => run.locator('tbody tr').count()).toBe(130)
    expect(await run.locator('tbody tr').last().locator('td').first().textContent()).toBe('130')
    expect(await run.getByRole('button', { name: /Show more batches/ }).count()).toBe(0)
    await expectAccessible(page, 'a run with more batches than its details carry')
  })

  it('rotates the secret, typed or generated by the server: only its hint is ever shown', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/connectors/${connectorId}`)
    await expect.poll(() => page.getByText('whsec_…LaSw').isVisible()).toBe(true)
    const rotated = 'whsec_' + Buffer.from('a new secret of thirty-two bytes').toString('base64')
    await page.getByLabel('New secret (empty: generate one)').fill(rotated)
    await page.getByRole('button', { name: 'Rotate the secret' }).click()
    const hint = `whsec_…${rotated.slice(-4)}`
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(new RegExp(`^New signing secret in use \\(ends ${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); the previous one also signs until `))
    expect(await page.getByLabel('New secret (empty: generate one)').inputValue()).toBe('')
    expect(await page.locator('main code').allTextContents()).toContain(hint)
    // Neither secret is anywhere in the page, nor in what the API answers.
    const text = (await page.locator('body').innerText()) + (await page.content())
    expect(text).not.toContain(rotated.slice(6, 30))
    expect(text).not.toContain(SECRET.slice(6, 30))
    const api = await (await fetch(`${e.base}/api/connectors/${connectorId}`)).text()
    expect(api).not.toContain(rotated.slice(6, 30))

    // Rotating with the field empty: the server makes one and shows its hint only.
    await page.getByRole('button', { name: 'Rotate the secret' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).not.toContain(hint)
    const generated = /ends (whsec_…\S{4})\)/.exec((await page.getByRole('status').textContent())!)?.[1]
    expect(generated).toMatch(/^whsec_…/)
    expect(generated).not.toBe(hint)
    expect(await page.locator('main code').allTextContents()).toContain(generated)
    await expectAccessible(page, 'connector after a rotation')
  })
})
