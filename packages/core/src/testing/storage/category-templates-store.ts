import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** A category's parameter templates, inherited down the tree (decision 0440). */
export function categoryTemplatesSuite(storage: () => Storage): void {
  describe('category templates', () => {
    const tree = async (s: Storage) => {
      await s.components.create({ name: 'R', category: 'Passives/Resistors/Thick film' })
      const all = await s.categories.list()
      const at = (path: string) => all.find((c) => c.path === path)!
      return { passives: at('Passives'), resistors: at('Passives/Resistors'), thick: at('Passives/Resistors/Thick film') }
    }

    it('inherits: ancestors first, then own, by position; a nearer entry for the same type wins', async () => {
      const s = storage()
      const { passives, resistors, thick } = await tree(s)
      const resistance = await s.parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
      await s.parameterTypes.create({ name: 'Tolerance', kind: 'choice', choices: ['1%', '5%'] })
      await s.parameterTypes.create({ name: 'Package', kind: 'text' })
      await s.categories.setTemplates(passives.id, [{ parameterType: 'package' }, { parameterType: 'Tolerance' }])
      const own = await s.categories.setTemplates(resistors.id, [{ parameterType: resistance.id, required: true, isValue: true }, { parameterType: 'TOLERANCE', required: true }])
      expect(own.map((t) => [t.parameterType, t.categoryId, t.required, t.isValue])).toEqual([
        ['Package', passives.id, false, false],
        ['Resistance', resistors.id, true, true],
        ['Tolerance', resistors.id, true, false],
      ])
      expect(own[2]).toMatchObject({ kind: 'choice', choices: ['1%', '5%'], unit: null })
      expect(await s.categories.templates(thick.id)).toEqual(own)
      expect(await s.categories.templatesForPath('passives/RESISTORS/thick FILM')).toEqual(own)
      expect((await s.categories.templates(passives.id)).map((t) => t.parameterType)).toEqual(['Package', 'Tolerance'])
      // A path not made yet: the write makes it below what exists, so it inherits from that.
      expect(await s.categories.templatesForPath('Passives/Capacitors')).toEqual(await s.categories.templates(passives.id))
      expect(await s.categories.templatesForPath('passives/resistors/thick film/0603')).toEqual(own)
      expect(await s.categories.templatesForPath('Actives/Resistors')).toEqual([])
      expect(await s.categories.templatesForPath(null)).toEqual([])
      // A rename of the type: the templates follow (they hold its id).
      await s.parameterTypes.update(resistance.id, { name: 'R value' })
      expect((await s.categories.templates(thick.id))[1]).toMatchObject({ parameterType: 'R value', parameterTypeId: resistance.id })
    })

    it('refuses an unknown type, a type listed twice and two value parameters, changing nothing', async () => {
      const s = storage()
      const { resistors } = await tree(s)
      await s.parameterTypes.create({ name: 'Resistance', kind: 'number' })
      await s.parameterTypes.create({ name: 'Power', kind: 'number' })
      await s.categories.setTemplates(resistors.id, [{ parameterType: 'Power' }])
      const before = await s.categories.templates(resistors.id)
      const refusals: [Parameters<Storage['categories']['setTemplates']>[1], string][] = [
        [[{ parameterType: 'Power' }, { parameterType: 'Ohms' }], 'body.templates[1].parameterType'],
        [[{ parameterType: 'Power' }, { parameterType: 'POWER' }], 'body.templates[1].parameterType'],
        [[{ parameterType: 'Power', isValue: true }, { parameterType: 'Resistance', isValue: true }], 'body.templates[1].isValue'],
      ]
      for (const [inputs, path] of refusals) {
        await expect(s.categories.setTemplates(resistors.id, inputs)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path }] })
      }
      expect(await s.categories.templates(resistors.id)).toEqual(before)
      await expect(s.categories.templates('cat_nope')).rejects.toMatchObject({ code: 'NOT_FOUND' })
      await expect(s.categories.setTemplates('cat_nope', [])).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('refuses deleting a type a template uses, naming the categories; deleting a category drops its own', async () => {
      const s = storage()
      const { resistors } = await tree(s)
      const power = await s.parameterTypes.create({ name: 'Power', kind: 'number' })
      const empty = await s.categories.create({ name: 'Empty', parentId: resistors.parentId })
      await s.categories.setTemplates(resistors.id, [{ parameterType: 'Power' }])
      await s.categories.setTemplates(empty.id, [{ parameterType: 'Power', required: true }])
      const refused = s.parameterTypes.delete(power.id)
      await expect(refused).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(refused).rejects.toThrow(/Passives\/Empty, Passives\/Resistors/)
      await s.categories.delete(empty.id)
      await s.categories.setTemplates(resistors.id, [])
      await s.parameterTypes.delete(power.id)
      await expect(s.parameterTypes.get(power.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })
  })
}
