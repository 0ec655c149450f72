import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** What parameter types ask of values, checked on every write (decisions 0440, 0441, 0442). */
export function parameterValuesSuite(storage: () => Storage): void {
  describe('parameter values', () => {
    const types = async (s: Storage) => {
      await s.parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number', min: 0, max: 1e9 })
      await s.parameterTypes.create({ name: 'Tolerance', kind: 'choice', choices: ['1%', '5%', 'Jumper'] })
      await s.parameterTypes.create({ name: 'Package', kind: 'text' })
    }

    it('refuses choices, limits and min above max where the kind takes none, on create and on the merged patch', async () => {
      const s = storage()
      const refusals: [Parameters<Storage['parameterTypes']['create']>[0], string][] = [
        [{ name: 'A', kind: 'number', choices: ['x'] }, 'body.choices'],
        [{ name: 'A', kind: 'choice' }, 'body.choices'],
        [{ name: 'A', kind: 'choice', choices: ['x', 'X'] }, 'body.choices[1]'],
        [{ name: 'A', kind: 'text', min: 1 }, 'body.min'],
        [{ name: 'A', kind: 'choice', choices: ['x'], max: 1 }, 'body.max'],
        [{ name: 'A', kind: 'number', min: 5, max: 1 }, 'body.min'],
      ]
      for (const [input, path] of refusals) {
        await expect(s.parameterTypes.create(input)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path }] })
      }
      const t = await s.parameterTypes.create({ name: 'Voltage', kind: 'number', unit: 'V', min: 0, max: 100 })
      expect(t).toMatchObject({ kind: 'number', choices: null, min: 0, max: 100 })
      await expect(s.parameterTypes.update(t.id, { kind: 'text' })).rejects.toMatchObject({ errors: [{ path: 'body.min' }, { path: 'body.max' }] })
      await expect(s.parameterTypes.update(t.id, { min: 200 })).rejects.toMatchObject({ errors: [{ path: 'body.min' }] })
      const choice = await s.parameterTypes.update(t.id, { kind: 'choice', choices: ['5V', '12V'], min: null, max: null })
      expect(choice).toMatchObject({ kind: 'choice', choices: ['5V', '12V'], min: null, max: null, version: 2 })
      expect(await s.parameterTypes.get(t.id)).toEqual(choice)
    })

    it('checks component writes before writing: ten kilo, a value out of limits, a choice not listed', async () => {
      const s = storage()
      await types(s)
      const bad: [string, string, string][] = [
        ['Resistance', 'ten kilo', 'not a number'],
        ['Resistance', '2G', 'above'],
        ['Resistance', '-1', 'below'],
        ['Tolerance', '10%', 'not one of the choices'],
      ]
      for (const [type, value, reason] of bad) {
        const refused = s.components.create({ name: 'R', parameters: [{ type: 'Package', value: '0603' }, { type, value }] })
        await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.parameters[1].value', message: expect.stringContaining(reason) }] })
      }
      expect((await s.components.list({ limit: 10, sort: 'id', includeDeleted: false })).total).toBe(0)
      const c = await s.components.create({ name: 'R', parameters: [{ type: 'resistance', value: '10k' }, { type: 'TOLERANCE', value: 'jumper' }, { type: 'Colour', value: 'ten kilo' }] })
      // A choice takes its listed spelling, a number without a unit the type's; an unknown type is free-form.
      expect(c.parameters).toEqual([
        { type: 'resistance', value: '10k', unit: 'Ω' },
        { type: 'TOLERANCE', value: 'Jumper' },
        { type: 'Colour', value: 'ten kilo' },
      ])
      const refused = s.components.update(c.id, { name: 'R2', parameters: [{ type: 'Resistance', value: '5 G' }] })
      await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.parameters[0].value' }] })
      expect(await s.components.get(c.id)).toEqual(c)
    })

    it('checks the parameter routes\' writes, naming body.value, and keeps values held from before a type tightened', async () => {
      const s = storage()
      await types(s)
      const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '2M' }] })
      await expect(s.parameters.add(c.id, { type: 'Tolerance', value: '3%' })).rejects.toMatchObject({ errors: [{ path: 'body.value' }] })
      const [p] = await s.parameters.listForComponent(c.id)
      await expect(s.parameters.update(p!.id, { value: 'lots' })).rejects.toMatchObject({ errors: [{ path: 'body.value' }] })
      await expect(s.parameters.replace(c.id, [{ type: 'Package', value: 'x' }, { type: 'Resistance', value: 'x' }])).rejects.toMatchObject({ errors: [{ path: 'body[1].value' }] })
      // The type tightens: the value held stays, and may be written back as it is (grandfathered), not changed to another bad one.
      const resistance = (await s.parameterTypes.list({ limit: 10, q: 'Resistance' })).items[0]!
      await s.parameterTypes.update(resistance.id, { max: 1e6 })
      const before = await s.components.get(c.id)
      expect((await s.components.update(c.id, { name: 'R kept', parameters: before.parameters })).name).toBe('R kept')
      expect(await s.parameters.replace(c.id, [{ type: 'Resistance', value: '2M', unit: 'Ω' }])).toHaveLength(1)
      await expect(s.components.update(c.id, { parameters: [{ type: 'Resistance', value: '3M' }] })).rejects.toMatchObject({ errors: [{ path: 'body.parameters[0].value' }] })
      expect(await s.parameterTypes.check([{ type: 'Resistance', value: '2M' }, { type: 'Tolerance', value: '5 %' }])).toEqual([
        { path: 'parameters[0].value', message: expect.stringContaining('above') },
        { path: 'parameters[1].value', message: expect.stringContaining('not one of') },
      ])
      const report = await s.parameterTypes.report({ limit: 10 })
      expect(report.nonConforming).toEqual({ total: 1, items: [{ componentId: c.id, ipn: before.ipn, name: 'R kept', type: 'Resistance', value: '2M', reason: expect.stringContaining('above') }] })
    })

    it('requires the parameters a category\'s templates require, when a write touches the category or the parameters', async () => {
      const s = storage()
      await types(s)
      const old = await s.components.create({ name: 'Old', category: 'Passives/Resistors' })
      const resistors = (await s.categories.list()).find((c) => c.path === 'Passives/Resistors')!
      await s.categories.setTemplates(resistors.id, [{ parameterType: 'Resistance', required: true, isValue: true }, { parameterType: 'Tolerance' }])
      const refused = s.components.create({ name: 'R', category: 'passives/resistors', parameters: [{ type: 'Tolerance', value: '1%' }] })
      await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.parameters', message: 'Resistance is required in passives/resistors' }] })
      const made = await s.components.create({ name: 'R', category: 'Passives/Resistors', parameters: [{ type: 'resistance', value: '1k' }] })
      await expect(s.components.update(made.id, { parameters: [] })).rejects.toMatchObject({ errors: [{ path: 'body.parameters' }] })
      // The parameter routes keep it too: a replace without it, a change of its type, its removal.
      await expect(s.parameters.replace(made.id, [{ type: 'Package', value: '0603' }])).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body' }] })
      const [held] = await s.parameters.listForComponent(made.id)
      await expect(s.parameters.update(held!.id, { type: 'Package' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.type' }] })
      await expect(s.parameters.delete(held!.id)).rejects.toMatchObject({ code: 'CONFLICT', message: 'Resistance is required in Passives/Resistors: the parameter cannot be removed' })
      expect(await s.components.get(made.id)).toEqual(made)
      const extra = await s.parameters.add(made.id, { type: 'RESISTANCE', value: '2k' })
      await s.parameters.delete(held!.id)
      await s.parameters.update(extra.id, { value: '3k' })
      const other = await s.components.create({ name: 'X', category: 'Other' })
      await expect(s.components.update(other.id, { category: 'Passives/Resistors' })).rejects.toMatchObject({ errors: [{ path: 'body.parameters' }] })
      // A write that touches neither leaves a component kept from before the template as it is; the report lists it.
      expect((await s.components.update(old.id, { name: 'Old part' })).name).toBe('Old part')
      expect(await s.parameterTypes.check([], { category: 'Passives/Resistors' })).toEqual([{ path: 'parameters', message: 'Resistance is required in Passives/Resistors' }])
      const report = await s.parameterTypes.report({ limit: 10 })
      expect(report.missingRequired).toEqual({ total: 1, items: [{ componentId: old.id, ipn: old.ipn, name: 'Old part', category: 'Passives/Resistors', missing: ['Resistance'] }] })
      expect((await s.parameterTypes.report({ limit: 0 + 1 })).nonConforming).toEqual({ total: 0, items: [] })
    })
  })
}
