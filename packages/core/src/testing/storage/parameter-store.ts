import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'
import { MISSING_COMPONENT } from './_fixtures'
import { parameterValuesSuite } from './parameter-values-store'

/** Parameters of components (as records) and the parameter type vocabulary. */
export function parameterStoreSuite(storage: () => Storage): void {
  describe('parameter store', () => {
    parameterValuesSuite(storage)
    describe('parameters', () => {
      it('lists the parameters of a component in order, each with its number', async () => {
        const s = storage()
        const c = await s.components.create({
          name: 'C',
          parameters: [
            { type: 'Capacitance', value: '100n', unit: 'F' },
            { type: 'Dielectric', value: 'X7R' },
          ],
        })
        const list = await s.parameters.listForComponent(c.id)
        expect(list).toMatchObject([
          { componentId: c.id, type: 'Capacitance', value: '100n', unit: 'F', numeric: 1e-7, version: 1 },
          { type: 'Dielectric', value: 'X7R', unit: null, numeric: null },
        ])
        expect(await s.parameters.get(list[0]!.id)).toEqual(list[0])
      })

      it('answers NOT_FOUND for the parameters of an unknown or deleted component', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'C', parameters: [{ type: 'Voltage', value: '50' }] })
        const [p] = await s.parameters.listForComponent(c.id)
        await s.components.delete(c.id)
        await expect(s.parameters.listForComponent(c.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.parameters.listForComponent(MISSING_COMPONENT)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.parameters.get(p!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.parameters.add(c.id, { type: 'x', value: '1' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await s.components.restore(c.id)
        expect(await s.parameters.listForComponent(c.id)).toHaveLength(1)
      })

      it('adds a parameter at the end and bumps the component', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'C', parameters: [{ type: 'Capacitance', value: '100n', unit: 'F' }] })
        const added = await s.parameters.add(c.id, { type: 'Voltage', value: '4.7u', unit: 'V' })
        expect(added).toMatchObject({ componentId: c.id, type: 'Voltage', value: '4.7u', unit: 'V', numeric: 4.7e-6, version: 1 })
        expect(added.id).toMatch(/^par_/)
        const component = await s.components.get(c.id)
        expect(component.version).toBe(2)
        expect(component.parameters.map((p) => p.type)).toEqual(['Capacitance', 'Voltage'])
        expect((await s.components.history(c.id, { limit: 1 })).items[0]!.changes).toEqual(['parameters'])
      })

      it('replaces all parameters of a component', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '1k' }] })
        const [old] = await s.parameters.listForComponent(c.id)
        const next = await s.parameters.replace(c.id, [
          { type: 'Resistance', value: '4k7', unit: 'Ω' },
          { type: 'Power', value: '100m', unit: 'W' },
        ])
        expect(next.map((p) => [p.type, p.numeric])).toEqual([
          ['Resistance', 4700],
          ['Power', 0.1],
        ])
        expect(await s.parameters.listForComponent(c.id)).toEqual(next)
        await expect(s.parameters.get(old!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await s.components.get(c.id)).toMatchObject({ version: 2, parameters: [{ type: 'Resistance', value: '4k7', unit: 'Ω' }, { type: 'Power', value: '100m', unit: 'W' }] })
      })

      it('updates a parameter, reading its number again', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '1k', unit: 'Ω' }] })
        const [p] = await s.parameters.listForComponent(c.id)
        expect(await s.parameters.update(p!.id, { value: '4k7' })).toMatchObject({ value: '4k7', unit: 'Ω', numeric: 4700, version: 2 })
        expect(await s.parameters.update(p!.id, { value: 'varies', unit: null })).toMatchObject({ value: 'varies', unit: null, numeric: null, version: 3 })
        expect(await s.components.get(c.id)).toMatchObject({ version: 3, parameters: [{ type: 'Resistance', value: 'varies' }] })
      })

      it('an update that changes nothing keeps both versions', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '1k' }] })
        const [p] = await s.parameters.listForComponent(c.id)
        expect((await s.parameters.update(p!.id, { value: '1k' })).version).toBe(1)
        expect((await s.components.get(c.id)).version).toBe(1)
      })

      it('refuses a stale ifVersion with PRECONDITION_FAILED and changes nothing', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '1k' }] })
        const [p] = await s.parameters.listForComponent(c.id)
        await s.parameters.update(p!.id, { value: '2k' }, { ifVersion: 1 })
        await expect(s.parameters.update(p!.id, { value: '3k' }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
        expect(await s.parameters.get(p!.id)).toMatchObject({ value: '2k', numeric: 2000, version: 2 })
        expect((await s.components.get(c.id)).version).toBe(2)
      })

      it('deletes a parameter and bumps the component', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'A', value: '1' }, { type: 'B', value: '2' }] })
        const [a] = await s.parameters.listForComponent(c.id)
        await s.parameters.delete(a!.id)
        await expect(s.parameters.get(a!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(s.parameters.delete(a!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await s.components.get(c.id)).toMatchObject({ version: 2, parameters: [{ type: 'B', value: '2' }] })
      })

      it('adds, reads numbers with SI prefixes, updates and deletes parameters', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'C', parameters: [{ type: 'Capacitance', value: '100n', unit: 'F' }] })
        const [first] = await s.parameters.listForComponent(c.id)
        expect(first).toMatchObject({ type: 'Capacitance', value: '100n', numeric: 1e-7 })
        const added = await s.parameters.add(c.id, { type: 'Voltage', value: '50', unit: 'V' })
        expect(added.numeric).toBe(50)
        expect((await s.parameters.update(added.id, { value: '4k7' })).numeric).toBe(4700)
        await s.parameters.delete(first!.id)
        expect((await s.components.get(c.id)).parameters).toEqual([{ type: 'Voltage', value: '4k7', unit: 'V' }])
        await expect(s.parameters.get(first!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })
    })

    describe('parameter types', () => {
      it('creates a type with defaults and reads it back', async () => {
        const t = await storage().parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
        expect(t).toMatchObject({ name: 'Resistance', unit: 'Ω', kind: 'number', description: null, version: 1 })
        expect(t.id).toMatch(/^pty_/)
        expect(await storage().parameterTypes.get(t.id)).toEqual(t)
      })

      it('rejects a duplicate name with CONFLICT naming body.name, regardless of case', async () => {
        await storage().parameterTypes.create({ name: 'Resistance', kind: 'number' })
        await expect(storage().parameterTypes.create({ name: 'RESISTANCE', kind: 'text' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        expect((await storage().parameterTypes.list({ limit: 10 })).total).toBe(1)
      })

      it('lists types by name, filtered by a substring, with a cursor', async () => {
        const s = storage()
        for (const name of ['Voltage', 'capacitance', 'Tolerance', 'Inductance']) await s.parameterTypes.create({ name, kind: 'number' })
        const first = await s.parameterTypes.list({ limit: 2 })
        const second = await s.parameterTypes.list({ limit: 2, cursor: first.nextCursor! })
        expect([...first.items, ...second.items].map((t) => t.name)).toEqual(['capacitance', 'Inductance', 'Tolerance', 'Voltage'])
        expect(second.nextCursor).toBeNull()
        const filtered = await s.parameterTypes.list({ limit: 10, q: 'ANCE' })
        expect(filtered.items.map((t) => t.name)).toEqual(['capacitance', 'Inductance', 'Tolerance'])
        expect(filtered.total).toBe(3)
      })

      it('updates a type, refusing a taken name with CONFLICT and a stale ifVersion with PRECONDITION_FAILED', async () => {
        const s = storage()
        const r = await s.parameterTypes.create({ name: 'Resistance', kind: 'text' })
        await s.parameterTypes.create({ name: 'Voltage', kind: 'number' })
        expect(await s.parameterTypes.update(r.id, { kind: 'number', unit: 'Ω', description: 'DC' })).toMatchObject({ kind: 'number', unit: 'Ω', description: 'DC', version: 2 })
        await expect(s.parameterTypes.update(r.id, { name: 'voltage' })).rejects.toMatchObject({ code: 'CONFLICT', errors: [{ path: 'body.name' }] })
        await expect(s.parameterTypes.update(r.id, { unit: null }, { ifVersion: 1 })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
        expect(await s.parameterTypes.get(r.id)).toMatchObject({ name: 'Resistance', unit: 'Ω', version: 2 })
      })

      it('deletes a type even while parameters use its name, keeping those parameters', async () => {
        const s = storage()
        const t = await s.parameterTypes.create({ name: 'Resistance', kind: 'number' })
        const c = await s.components.create({ name: 'R', parameters: [{ type: 'Resistance', value: '10k' }] })
        await s.parameterTypes.delete(t.id)
        await expect(s.parameterTypes.get(t.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        expect(await s.components.get(c.id)).toMatchObject({ version: 1, parameters: [{ type: 'Resistance', value: '10k' }] })
      })

      it('answers NOT_FOUND for an unknown type', async () => {
        const id = 'pty_01JD7W3T9X4QF5B8S2M6K0N1PZ'
        await expect(storage().parameterTypes.get(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(storage().parameterTypes.update(id, { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
        await expect(storage().parameterTypes.delete(id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
      })

      it('keeps parameter type names unique', async () => {
        await storage().parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number' })
        await expect(storage().parameterTypes.create({ name: 'resistance', kind: 'number' })).rejects.toMatchObject({ code: 'CONFLICT' })
        expect((await storage().parameterTypes.list({ limit: 10 })).items.map((t) => t.name)).toEqual(['Resistance'])
      })
    })
  })
}
