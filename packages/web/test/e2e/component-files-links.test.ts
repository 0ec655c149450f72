import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, expectAccessible, startE2E, type E2E } from './harness'

describe.skipIf(!browserAvailable())('component screen: files, symbol and footprint links, keyboard only, in Chromium', () => {
  let e: E2E
  let id: string
  beforeAll(async () => {
    e = await startE2E()
    const { components, symbols, footprints } = e.server.storage
    id = (await components.create({ name: 'TL072 dual op-amp', category: 'Amplifiers' })).id
    for (const name of ['Amplifier_Operational:TL072', 'Device:R']) await symbols.create({ name })
    for (const name of ['Package_DIP:DIP-8_W7.62mm', 'Package_SO:SOIC-8_3.9x4.9mm_P1.27mm']) await footprints.create({ name })
  })
  afterAll(async () => {
    await e?.close()
  })

  it('uploads a file to the component and downloads the same bytes back', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/components/${id}`)
    await expect.poll(() => page.getByText('No files yet.').isVisible()).toBe(true)
    // An edit not yet saved: adding and removing a file (each a new version of the component) keep it.
    await page.getByLabel('Description').fill('typed before the upload')
    // Bytes a text decoder would mangle, so the download is checked byte for byte.
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x0a, ...Buffer.from('tl072 datasheet')])
    await page.getByLabel('Upload a file (datasheet, image, CAD)').setInputFiles({ name: 'tl072.pdf', mimeType: 'application/pdf', buffer: bytes })
    const download = page.getByRole('button', { name: 'Download tl072.pdf' })
    await expect.poll(() => download.isVisible()).toBe(true)
    expect(await page.locator('.extras li').first().textContent()).toContain(`${bytes.length} bytes`)
    const stored = await e.server.storage.attachments.list({ componentId: id, limit: 10 })
    expect(stored.items).toMatchObject([{ name: 'tl072.pdf', contentType: 'application/pdf', size: bytes.length }])

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()])
    expect(file.suggestedFilename()).toBe('tl072.pdf')
    expect(readFileSync((await file.path())!)).toEqual(bytes)
    await expectAccessible(page, 'component with a file')

    await page.getByRole('button', { name: 'Delete tl072.pdf' }).click()
    await expect.poll(() => page.getByText('No files yet.').isVisible()).toBe(true)
    expect((await e.server.storage.attachments.list({ componentId: id, limit: 10 })).items).toEqual([])

    // The edit survived both, and saves without meeting a 412 of the page's own making.
    expect(await page.getByLabel('Description').inputValue()).toBe('typed before the upload')
    await page.getByRole('button', { name: 'Save changes' }).click()
    const { version } = await e.server.storage.components.get(id)
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Saved version ${version}.`)
    expect(await e.server.storage.components.get(id)).toMatchObject({ description: 'typed before the upload' })
  })

  it('links a symbol and a footprint found by name, and unlinks one', async () => {
    const { page } = e
    const { version } = await e.server.storage.components.get(id)
    await page.goto(`${e.base}/#/components/${id}`)
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('TL072 dual op-amp')
    await page.getByLabel('Find a symbol to link').fill('TL072')
    await page.getByRole('button', { name: 'Link Amplifier_Operational:TL072' }).click()
    await page.getByLabel('Find a footprint to link').fill('DIP')
    await page.getByRole('button', { name: 'Link Package_DIP:DIP-8_W7.62mm' }).click()
    await page.getByLabel('Find a footprint to link').fill('SOIC')
    await page.getByRole('button', { name: 'Link Package_SO:SOIC-8_3.9x4.9mm_P1.27mm' }).click()
    expect(await page.getByText(/^Changed: /).textContent()).toBe('Changed: symbols, footprints')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Saved version ${version + 1}.`)
    const saved = await e.server.storage.components.get(id)
    expect(saved.symbols.map((s) => s.name)).toEqual(['Amplifier_Operational:TL072'])
    expect(saved.footprints.map((f) => f.name).sort()).toEqual(['Package_DIP:DIP-8_W7.62mm', 'Package_SO:SOIC-8_3.9x4.9mm_P1.27mm'])
    // A linked one is no longer offered.
    await page.getByLabel('Find a symbol to link').fill('')
    await expect.poll(() => page.getByRole('button', { name: 'Link Device:R' }).isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Link Amplifier_Operational:TL072', exact: true }).count()).toBe(0)
    await expectAccessible(page, 'component with links')

    await page.getByRole('button', { name: 'Unlink Package_SO:SOIC-8_3.9x4.9mm_P1.27mm' }).click()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Saved version ${version + 2}.`)
    expect((await e.server.storage.components.get(id)).footprints.map((f) => f.name)).toEqual(['Package_DIP:DIP-8_W7.62mm'])
  })

  it('by keyboard only: search, open the component, edit a field, save', async () => {
    const { page } = e
    const { version } = await e.server.storage.components.get(id)
    await page.goto(`${e.base}/`)
    await expect.poll(() => page.getByText(/^1 component$/).isVisible()).toBe(true)
    /** Presses Tab until `done` holds for the focused element; fails after `max` presses. */
    const tabTo = async (what: string, done: () => boolean, max = 60) => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press('Tab')
        if (await page.evaluate(done)) return
      }
      throw new Error(`Tab never reached ${what}`)
    }
    await tabTo('the search box', () => document.activeElement?.getAttribute('role') === 'combobox')
    await page.keyboard.type('TL072')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByText(/^1 component$/).isVisible()).toBe(true)
    await tabTo('the component in the table', () => document.activeElement?.textContent === 'TL072 dual op-amp' && document.activeElement.tagName === 'A')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('TL072 dual op-amp')
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe('TL072 dual op-amp')
    await tabTo('the description', () => document.activeElement?.tagName === 'TEXTAREA')
    await page.keyboard.press('Control+A')
    await page.keyboard.type('JFET input, low noise')
    await tabTo('Save changes', () => document.activeElement?.textContent === 'Save changes')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByRole('status').textContent()).toBe(`Saved version ${version + 1}.`)
    expect(await e.server.storage.components.get(id)).toMatchObject({ description: 'JFET input, low noise', version: version + 1 })
  })
})
