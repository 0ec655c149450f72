import { createClient } from '@complib/client-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserAvailable, startE2E, type E2E } from './harness'

/**
 * A free parameter row whose name is typed as a template's (decision 1416):
 * it stays where it is, the typing goes on in it, and it fills the
 * template's field, saying so.
 */
describe.skipIf(!browserAvailable())('a free parameter row named as a template, in Chromium', () => {
  let e: E2E
  beforeAll(async () => {
    e = await startE2E()
    const { parameterTypes, categories } = e.server.storage
    await parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
    const resistors = await categories.create({ name: 'Resistors' })
    await createClient({ baseUrl: e.base }).categories.setTemplates(resistors.id, [{ parameterType: 'Resistance' }])
  })
  afterAll(async () => {
    await e?.close()
  })

  it('keeps the row and its focus while the name is typed, and the value typed next fills the template field', async () => {
    const { page } = e
    await page.goto(`${e.base}/#/components/new`)
    await page.getByLabel('Name').fill('R 10k 0603')
    await page.getByLabel('Category').fill('Resistors')
    const fields = page.getByRole('group', { name: 'Parameters of Resistors' })
    await expect.poll(() => fields.getByLabel('Resistance').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Add parameter' }).click()
    await page.getByLabel('Parameters 1: Parameter').click()
    // Key by key, as a person types: the name is the template's after the tenth key.
    await page.keyboard.type('Resistance', { delay: 20 })
    expect(await page.evaluate("document.activeElement?.closest('label')?.textContent")).toBe('Parameters 1: Parameter')
    expect(await page.getByLabel('Parameters 1: Parameter').inputValue()).toBe('Resistance')
    await expect.poll(() => page.getByText('Fills the Resistance field above.').isVisible()).toBe(true)
    await page.keyboard.press('Tab')
    await page.keyboard.type('10k', { delay: 20 })
    expect(await page.getByLabel('Parameters 1: Value').inputValue()).toBe('10k')
    expect(await fields.getByLabel('Resistance').inputValue()).toBe('10k')

    await page.getByRole('button', { name: 'Create component' }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('R 10k 0603')
    const id = page.url().split('/').pop()!
    const saved = await createClient({ baseUrl: e.base }).components.get(id)
    expect(saved.parameters.map((p) => [p.type, p.value])).toEqual([['Resistance', '10k']])
    // Opened again, the parameter is in the template's field, not among the free rows.
    await page.reload()
    await expect.poll(() => fields.getByLabel('Resistance').inputValue()).toBe('10k')
    expect(await page.getByLabel('Parameters 1: Parameter').count()).toBe(0)
  })
})
