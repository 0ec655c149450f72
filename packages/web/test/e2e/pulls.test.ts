import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { INVENTREE_FAKE_TOKEN, startInventreeFake, type InventreeFake } from '@complib/sources/testing'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DARK_PROBLEMS } from './dark-probe'
import { browserAvailable, expectAccessible, startE2E, type E2E } from './harness'

/** Where the screenshots of these screens go, to be looked at. */
const SHOTS = process.env.COMPLIB_SHOTS_DIR ?? '/tmp/shots'

/** The whole page, or (`fullPage: false`) what a person sees first: a pull's rows run to hundreds. */
async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? true })
}

/** The rows' outcomes (not the changes table nested in an update's row). */
const ROWS = 'table.import-rows > tbody > tr'
const CHANGED = 'Changed at the peer: low-noise variant'

/**
 * Pulling a peer's whole library through the interface, against the
 * InvenTree fake of packages/sources (300 parts): the Import screen points to
 * the Sources screen while no peer is configured; the source is added there
 * as a person would (the Sources suite configures only Mouser, whose fields
 * differ: a token, the peer's own URL); the pull shows its progress, then a
 * preview of 300 parts to create (no column mapping: a pull's columns are
 * fixed; the screen says where the parts come from), committed; a part
 * changed at the peer and pulled again is exactly one update, its field
 * before and after; a peer that refuses the token says so, nothing to commit.
 */
describe.skipIf(!browserAvailable())('pulling an InvenTree library, in Chromium', () => {
  let e: E2E
  let fake: InventreeFake
  beforeAll(async () => {
    fake = await startInventreeFake()
    e = await startE2E()
  })
  afterAll(async () => {
    await fake?.close()
    await e?.close()
  })

  it('with no peer configured, the Import screen says where to add one', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/import`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Import & export')
    const hint = page.getByText(/To pull a library straight from a running InvenTree or Part-DB/)
    await expect.poll(() => hint.isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Pull and preview' }).count()).toBe(0)
    await expectAccessible(page, 'import, no peer')
    await shot(page, 'pull-no-peer')
    await hint.getByRole('link', { name: /Sources/ }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sources')
  })

  it('adds the InvenTree on the Sources screen', async () => {
    const { page } = e
    await page.getByRole('button', { name: 'Add a source' }).click()
    await page.getByRole('combobox', { name: /^Type/ }).selectOption('inventree')
    expect(await page.getByLabel('Name').inputValue()).toBe('InvenTree')
    await page.getByLabel('Name').fill('Lab InvenTree')
    await page.getByLabel('Base URL').fill(fake.url)
    const token = page.getByLabel('Token')
    expect(await token.getAttribute('type')).toBe('password')
    await token.fill(INVENTREE_FAKE_TOKEN)
    await page.getByRole('button', { name: 'Create source' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Created Lab InvenTree.')
  })

  it('pulls the whole library: the progress, then a preview of 300 parts to create, committed', async () => {
    const { page } = e
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Import & export' }).click()
    const peer = page.getByRole('combobox', { name: 'Pull the whole library of' })
    await expect.poll(() => peer.isVisible()).toBe(true)
    expect(await peer.locator('option').allTextContents()).toEqual(['Lab InvenTree (InvenTree)'])
    await shot(page, 'pull-form')
    await page.getByRole('button', { name: 'Pull and preview' }).click()
    // The session answers at once, planning; the screen shows how far the pull is until it is planned,
    // named after the peer: "…" until the peer has said how many parts it holds, then "n of 300".
    await expect.poll(() => page.getByText(/^(Pulling parts from Lab InvenTree \(InvenTree\)(…|: [\d,]+ of 300)|Planning: [\d,]+ of 300)$/).first().isVisible()).toBe(true)
    await shot(page, 'pull-progress')
    await expect.poll(() => page.getByText('Pulled from Lab InvenTree (InvenTree): 300 parts. Committing would create 300, update 0.').isVisible(), { timeout: 60_000 }).toBe(true)
    await expect.poll(() => page.locator(ROWS).count()).toBe(300)
    // A pull's rows are the peer's parts, numbered from 1.
    expect(await page.locator('table.import-rows thead th').first().textContent()).toBe('Part')
    expect(await page.locator(ROWS).first().textContent()).toMatch(/^1create\S/)
    // No column mapping for a pull: its columns are fixed; the screen says where the parts come from instead.
    expect(await page.getByRole('group', { name: 'Column mapping' }).count()).toBe(0)
    expect(await page.locator('.pull-origin').textContent()).toMatch(/^The parts come from Lab InvenTree \(InvenTree\), each with all its fields/)
    await expectAccessible(page, 'import, pull preview')
    await shot(page, 'pull-preview', { fullPage: false })
    await page.getByRole('button', { name: 'Commit the import' }).click()
    await expect.poll(() => page.locator('[role="status"].ok').first().textContent(), { timeout: 60_000 }).toBe('Pulled from Lab InvenTree (InvenTree): 300 parts. Imported: 300 created, 0 updated.')
    await shot(page, 'pull-committed', { fullPage: false })
    expect((await e.server.storage.components.list({ limit: 1, sort: 'ipn', includeDeleted: false })).total).toBe(300)
  }, 120_000)

  it('pulls again after a change at the peer: exactly one update, its field before and after', async () => {
    const { page } = e
    const part = fake.db.parts[0]!
    const before = part.description
    part.description = CHANGED
    await page.getByRole('button', { name: 'Pull and preview' }).click()
    await expect.poll(() => page.getByText('Pulled from Lab InvenTree (InvenTree): 300 parts. Committing would create 0, update 1 and leave 299 as they are.').isVisible(), { timeout: 60_000 }).toBe(true)
    // Among 299 unchanged, the table starts with the one to look at; every row is a choice away.
    const show = page.getByRole('combobox', { name: 'Show' })
    expect(await show.inputValue()).toBe('update')
    expect(await show.locator('option').allTextContents()).toEqual(['every part', 'parts to update (1)', 'parts left as they are (299)'])
    await expect.poll(() => page.locator(ROWS).count()).toBe(1)
    const row = page.locator(ROWS).first()
    expect(await row.locator('> td').nth(1).textContent()).toBe('update')
    expect(await row.locator('> td').nth(2).textContent()).toMatch(new RegExp(`^${part.name}`))
    // The field that changes, before and after: only the description.
    const changes = row.locator('table.import-changes tbody tr')
    expect(await changes.count()).toBe(1)
    expect(await changes.locator('th').textContent()).toBe('Description')
    expect(await changes.locator('td').allTextContents()).toEqual([before, CHANGED])
    expect(await changes.locator('td del').textContent()).toBe(before)
    expect(await changes.locator('td ins').textContent()).toBe(CHANGED)
    await expectAccessible(page, 'import, re-pull preview')
    await shot(page, 'pull-resync')
    await show.selectOption('all')
    await expect.poll(() => page.locator(ROWS).count()).toBe(300)
    await show.selectOption('update')
    await expect.poll(() => page.locator(ROWS).count()).toBe(1)
    await page.getByRole('button', { name: 'Commit the import' }).click()
    await expect.poll(() => page.locator('[role="status"].ok').first().textContent(), { timeout: 60_000 }).toBe('Pulled from Lab InvenTree (InvenTree): 300 parts. Imported: 0 created, 1 updated, 299 already up to date.')
    await shot(page, 'pull-resync-committed')
    const [component] = (await e.server.storage.components.list({ q: part.name, limit: 5, sort: 'ipn', includeDeleted: false })).items.filter((c) => c.name === part.name)
    expect(component?.description).toBe(CHANGED)
  }, 120_000)

  it('a peer that refuses the token: the screen says which and why, and offers nothing to commit', async () => {
    const { page } = e
    const created = await fetch(`${e.base}/api/sources`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'inventree', name: 'Old InvenTree', config: { baseUrl: fake.url, token: 'inv-not-the-right-token' } }),
    })
    expect(created.status).toBe(201)
    await page.reload()
    const peer = page.getByRole('combobox', { name: 'Pull the whole library of' })
    await expect.poll(() => peer.locator('option').count()).toBe(2)
    await peer.selectOption({ label: 'Old InvenTree (InvenTree)' })
    await page.getByRole('button', { name: 'Pull and preview' }).click()
    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/^Nothing was pulled from Old InvenTree \(InvenTree\): pulling the parts failed: .*token/)
    expect(await page.getByRole('button', { name: /Commit the import/ }).count()).toBe(0)
    expect(await page.locator(ROWS).count()).toBe(0)
    expect(await page.locator('.pull-origin').count()).toBe(0)
    expect(await page.getByRole('link', { name: 'Sources screen' }).getAttribute('href')).toBe('#/sources')
    await expectAccessible(page, 'import, refused pull')
    await shot(page, 'pull-refused')
  })

  it('reads well in the dark scheme: the pull form and a re-sync preview', async () => {
    const dark = await e.browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'dark' })
    dark.setDefaultTimeout(10_000)
    const page = await dark.newPage()
    try {
      fake.db.parts[1]!.description = CHANGED
      await page.goto(`${e.base}/#/import`)
      await page.getByRole('combobox', { name: 'Pull the whole library of' }).selectOption({ label: 'Lab InvenTree (InvenTree)' })
      await page.waitForLoadState('networkidle')
      await shot(page, 'dark-pull-form')
      expect(await page.evaluate(DARK_PROBLEMS), 'the pull form in the dark scheme').toEqual([])
      await page.getByRole('button', { name: 'Pull and preview' }).click()
      await expect.poll(() => page.locator('table.import-changes').count(), { timeout: 60_000 }).toBe(1)
      await page.waitForLoadState('networkidle')
      await shot(page, 'dark-pull-resync')
      expect(await page.evaluate(DARK_PROBLEMS), 'a re-sync preview in the dark scheme').toEqual([])
    } finally {
      await dark.close()
    }
  }, 120_000)
})
