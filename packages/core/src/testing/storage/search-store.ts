import { describe, expect, it } from 'vitest'
import type { Storage } from '../../storage/types'

/** Suggest (every entity kind), grouped search and parametric search. */
export function searchStoreSuite(storage: () => Storage): void {
  describe('search store', () => {
    describe('suggest', () => {
      it('ranks a name prefix before a word prefix before a substring match', async () => {
        const s = storage()
        const inside = await s.components.create({ name: 'Polyfuse 0603', ipn: 'FUS-1' })
        const word = await s.components.create({ name: 'Resettable fuse', ipn: 'FUS-2' })
        const prefix = await s.components.create({ name: 'Fuse holder for 5x20 mm', ipn: 'FUS-3' })
        const hits = await s.search.suggest('components', 'fuse', 5)
        expect(hits.map((h) => h.id)).toEqual([prefix.id, word.id, inside.id])
        expect((await s.search.suggest('components', 'set', 5)).map((h) => h.id)).toEqual([word.id])
      })

      it('breaks ties by the shorter label, then the label, then the id', async () => {
        const s = storage()
        const b = await s.components.create({ name: 'Res B', ipn: 'T-1' })
        const a = await s.components.create({ name: 'Res A', ipn: 'T-2' })
        const short = await s.components.create({ name: 'Res', ipn: 'T-3' })
        const twin = await s.components.create({ name: 'Res A', ipn: 'T-4' })
        expect((await s.search.suggest('components', 'res', 10)).map((h) => h.id)).toEqual([short.id, a.id, twin.id, b.id])
      })

      it('ignores case in the query and in the record', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'LED red 0805', ipn: 'led-1', mpns: [{ manufacturer: 'Kingbright', partNumber: 'kp-2012ec' }] })
        for (const q of ['led RED', 'LED-1', 'KP-2012EC', 'Red']) {
          expect((await s.search.suggest('components', q, 5)).map((h) => h.id)).toEqual([c.id])
        }
      })

      it('finds a component by ipn or part number and shows its ipn as the detail', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k', ipn: 'RES-1', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] })
        await s.components.create({ name: 'C 100n', ipn: 'CAP-1', mpns: [{ manufacturer: 'Murata', partNumber: 'GRM188R71H104KA93D' }] })
        expect(await s.search.suggest('components', 'res-', 5)).toEqual([{ id: c.id, entity: 'components', label: 'R 10k', detail: 'RES-1' }])
        expect((await s.search.suggest('components', 'rc06', 5)).map((h) => h.id)).toEqual([c.id])
        expect((await s.search.suggest('components', '0710k', 5)).map((h) => h.id)).toEqual([c.id])
      })

      it('reads %, _ and full-text syntax in a query as plain text', async () => {
        const s = storage()
        const pct = await s.components.create({ name: 'R 1% 0603', ipn: 'P-1' })
        const under = await s.components.create({ name: 'NET_TIE small', ipn: 'P-2' })
        await s.components.create({ name: 'R 10 0603', ipn: 'P-3' })
        expect((await s.search.suggest('components', '1%', 5)).map((h) => h.id)).toEqual([pct.id])
        expect((await s.search.suggest('components', 't_t', 5)).map((h) => h.id)).toEqual([under.id])
        for (const q of ['"', 'NEAR', 'a OR b', '*', '-', '(x', 'NET_TIE"*']) {
          await expect(s.search.suggest('components', q, 5)).resolves.toBeInstanceOf(Array)
        }
        expect(await s.search.suggest('components', '   ', 5)).toEqual([])
      })

      it('returns at most limit suggestions', async () => {
        const s = storage()
        for (let i = 0; i < 8; i++) await s.components.create({ name: `Diode ${i}`, ipn: `D-${i}` })
        expect(await s.search.suggest('components', 'diode', 3)).toHaveLength(3)
        expect(await s.search.suggest('components', 'diode', 20)).toHaveLength(8)
      })

      it('follows renames and leaves deleted components out until restored', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'Crystal 16MHz', ipn: 'XT-1', mpns: [{ manufacturer: 'Abracon', partNumber: 'ABM8-16.000MHZ' }] })
        await s.components.update(c.id, { name: 'Oscillator 16MHz' })
        expect(await s.search.suggest('components', 'crystal', 5)).toEqual([])
        expect((await s.search.suggest('components', 'oscil', 5)).map((h) => h.id)).toEqual([c.id])
        await s.components.delete(c.id)
        for (const q of ['oscil', 'XT-1', 'ABM8', '16.000']) expect(await s.search.suggest('components', q, 5)).toEqual([])
        expect(await s.search.suggest('mpns', 'ABM8', 5)).toEqual([])
        await s.components.restore(c.id)
        expect((await s.search.suggest('components', 'abm8', 5)).map((h) => h.id)).toEqual([c.id])
      })

      // 3,000 creates, each a few round trips on PostgreSQL: 12.5 s there on an idle machine and up to 26 s
      // on a busy one, against the default 20 s. Its budget, not a measure of speed.
      it('keeps the ranking over 3,000 components and never shows a deleted one', { timeout: 90_000 }, async () => {
        const s = storage()
        const ids: string[] = []
        await s.transaction(async (tx) => {
          for (let i = 0; i < 3000; i++) {
            const c = await tx.components.create({ name: `Cap ${i} ceramic`, ipn: `CAP-${String(i).padStart(5, '0')}`, mpns: [{ manufacturer: 'Murata', partNumber: `GRM${i}X7R` }] })
            ids.push(c.id)
          }
        })
        const word = await s.components.create({ name: 'Ceramic resonator', ipn: 'RSN-1' })
        const inside = await s.components.create({ name: 'Multiceramics kit', ipn: 'KIT-1' })
        const deleted = await s.components.create({ name: 'Ceramic', ipn: 'OLD-1' })
        await s.components.delete(deleted.id)
        await s.components.delete(ids[0]!)
        const hits = await s.search.suggest('components', 'ceramic', 5)
        expect(hits[0]!.id).toBe(word.id)
        expect(hits).toHaveLength(5)
        expect(hits.map((h) => h.id)).not.toContain(deleted.id)
        expect((await s.search.suggest('components', 'ticeram', 5)).map((h) => h.id)).toEqual([inside.id])
        expect((await s.search.suggest('components', 'CAP-0000', 5)).map((h) => h.id)).toEqual(ids.slice(1, 6))
        expect((await s.search.suggest('components', 'CAP-0299', 20)).map((h) => h.detail)).toEqual(Array.from({ length: 10 }, (_, i) => `CAP-0299${i}`))
        expect((await s.search.suggest('mpns', '2999x7', 5)).map((h) => h.label)).toEqual(['GRM2999X7R'])
      })

      it('suggests symbols and footprints by name, with the library as the detail', async () => {
        const s = storage()
        const sym = await s.symbols.create({ name: 'R_Small', library: 'Device' })
        const fp = await s.footprints.create({ name: 'R_0603_1608Metric', library: 'Resistor_SMD' })
        await s.footprints.create({ name: 'C_0603_1608Metric', library: 'Capacitor_SMD' })
        expect(await s.search.suggest('symbols', 'r_s', 5)).toEqual([{ id: sym.id, entity: 'symbols', label: 'R_Small', detail: 'Device' }])
        expect((await s.search.suggest('footprints', '0603', 5)).map((h) => h.label)).toEqual(['C_0603_1608Metric', 'R_0603_1608Metric'])
        expect((await s.search.suggest('footprints', 'r_06', 5))[0]).toEqual({ id: fp.id, entity: 'footprints', label: 'R_0603_1608Metric', detail: 'Resistor_SMD' })
      })

      it('suggests manufacturers by name and by alias', async () => {
        const s = storage()
        const ti = await s.manufacturers.create({ name: 'Texas Instruments', aliases: ['TI', 'Burr-Brown'] })
        await s.manufacturers.create({ name: 'Tiny Circuits' })
        expect((await s.search.suggest('manufacturers', 'instr', 5)).map((h) => h.id)).toEqual([ti.id])
        expect((await s.search.suggest('manufacturers', 'burr', 5)).map((h) => h.id)).toEqual([ti.id])
        expect((await s.search.suggest('manufacturers', 'ti', 5)).map((h) => h.label)).toContain('Texas Instruments')
      })

      it('shows how many live components carry a tag', async () => {
        const s = storage()
        await s.components.create({ name: 'A', ipn: 'A-1', tags: ['smd', 'stocked'] })
        await s.components.create({ name: 'B', ipn: 'B-1', tags: ['smd'] })
        const gone = await s.components.create({ name: 'C', ipn: 'C-1', tags: ['smd'] })
        await s.components.delete(gone.id)
        const hits = await s.search.suggest('tags', 'SM', 5)
        expect(hits).toEqual([{ id: expect.stringMatching(/^tag_/), entity: 'tags', label: 'smd', detail: '2 components' }])
        expect((await s.search.suggest('tags', 'ock', 5)).map((h) => h.detail)).toEqual(['1 components'])
      })

      it('suggests locations with their path as the detail', async () => {
        const s = storage()
        const shelf = await s.locations.create({ name: 'Shelf A' })
        const drawer = await s.locations.create({ name: 'Drawer 3', parentId: shelf.id })
        const bin = await s.locations.create({ name: 'Bin 12', parentId: drawer.id })
        expect(await s.search.suggest('locations', 'bin', 5)).toEqual([{ id: bin.id, entity: 'locations', label: 'Bin 12', detail: 'Shelf A / Drawer 3 / Bin 12' }])
        expect((await s.search.suggest('locations', 'a', 5)).map((h) => h.id)).toEqual([shelf.id, drawer.id])
      })

      it('suggests MPNs with their manufacturer and component ipn', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'Op amp', ipn: 'IC-7', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }, { manufacturer: 'onsemi', partNumber: 'LM358DR2G' }] })
        const [dr, dr2g] = await s.mpns.listForComponent(c.id)
        const hits = await s.search.suggest('mpns', 'lm358', 5)
        expect(hits).toEqual([
          { id: dr!.id, entity: 'mpns', label: 'LM358DR', detail: 'TI · IC-7' },
          { id: dr2g!.id, entity: 'mpns', label: 'LM358DR2G', detail: 'onsemi · IC-7' },
        ])
        expect((await s.search.suggest('mpns', '8dr2', 5)).map((h) => h.id)).toEqual([dr2g!.id])
      })

      it('ranks a whole-field prefix before a word prefix before a substring', async () => {
        const s = storage()
        const substring = await s.components.create({ name: 'Xres thing', ipn: 'A-1' })
        const word = await s.components.create({ name: 'Big Resistor', ipn: 'A-2' })
        const prefix = await s.components.create({ name: 'Resistor 10k', ipn: 'A-3' })
        const hits = await s.search.suggest('components', 'res', 5)
        expect(hits.map((h) => h.id)).toEqual([prefix.id, word.id, substring.id])
        expect(hits[0]).toEqual({ id: prefix.id, entity: 'components', label: 'Resistor 10k', detail: 'A-3' })
      })

      it('matches every word of a query, in the description too', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'R 10k', description: 'Resistor 10k in 0603' })
        await s.components.create({ name: 'C 100n', description: 'Capacitor in 0603' })
        expect((await s.search.suggest('components', 'resistor 0603', 5)).map((h) => h.id)).toEqual([c.id])
      })

      it('ranks the words typed in full before the longer words they start, whatever the limit', async () => {
        const s = storage()
        // Earlier parts (first in every index) whose labels would win a tie, with longer words only.
        await s.transaction(async (tx) => {
          for (let i = 0; i < 40; i++) await tx.components.create({ name: `A${i}`, ipn: `RES-0603${String(i).padStart(2, '0')}`, description: 'Resistor' })
        })
        const whole: string[] = []
        for (let i = 0; i < 3; i++) whole.push((await s.components.create({ name: `Resistor B${i}`, description: 'Resistor in 0603' })).id)
        expect((await s.search.suggest('components', 'resistor 0603', 3)).map((h) => h.id)).toEqual(whole)
        const more = await s.search.suggest('components', 'resistor 0603', 5)
        expect(more.map((h) => h.id).slice(0, 3)).toEqual(whole)
        expect(more.slice(3).map((h) => h.label)).toEqual(['A0', 'A1'])
        // Part numbers too: a whole word before the longer ones it starts.
        await s.components.create({ name: 'Other', mpns: [{ manufacturer: 'Acme', partNumber: 'AB-100' }, { manufacturer: 'Acme', partNumber: 'ABCDE-10' }] })
        expect((await s.search.suggest('mpns', '10', 5)).map((h) => h.label)).toEqual(['ABCDE-10', 'AB-100'])
      })

      it('finds components by ipn and part number, never deleted ones', async () => {
        const s = storage()
        const c = await s.components.create({ name: 'Op amp', ipn: 'IC-7', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] })
        const gone = await s.components.create({ name: 'Op amp old', ipn: 'IC-8', mpns: [{ manufacturer: 'TI', partNumber: 'LM358P' }] })
        await s.components.delete(gone.id)
        expect((await s.search.suggest('components', 'lm358', 5)).map((h) => h.id)).toEqual([c.id])
        expect((await s.search.suggest('components', 'ic-', 5)).map((h) => h.id)).toEqual([c.id])
        const mpns = await s.search.suggest('mpns', 'LM35', 5)
        expect(mpns.map((h) => h.label)).toEqual(['LM358DR'])
        expect(mpns[0]!.detail).toBe('TI · IC-7')
      })

      it('keeps the ranking over a few thousand components', { timeout: 90_000 }, async () => {
        const s = storage()
        await s.transaction(async (tx) => {
          for (let i = 0; i < 3000; i++) await tx.components.create({ name: `Part ${i} capacitor`, ipn: `C-${i}` })
        })
        const target = await s.components.create({ name: 'Capacitor special', ipn: 'Z-1' })
        const hits = await s.search.suggest('components', 'capac', 5)
        expect(hits).toHaveLength(5)
        expect(hits[0]!.id).toBe(target.id)
      })

      it('suggests tags, locations and manufacturers by name', async () => {
        const s = storage()
        await s.components.create({ name: 'A', tags: ['smd'], mpns: [{ manufacturer: 'Murata', partNumber: 'X' }] })
        const shelf = await s.locations.create({ name: 'Shelf' })
        await s.locations.create({ name: 'Small bin', parentId: shelf.id })
        expect(await s.search.suggest('tags', 'sm', 5)).toEqual([expect.objectContaining({ label: 'smd', detail: '1 components' })])
        expect((await s.search.suggest('locations', 'sm', 5)).map((h) => h.detail)).toEqual(['Shelf / Small bin'])
        expect((await s.search.suggest('manufacturers', 'mur', 5)).map((h) => h.label)).toEqual(['Murata'])
        const grouped = await s.search.search('sm', 5)
        expect(grouped.tags).toHaveLength(1)
        expect(grouped.components).toEqual([])
      })
    })

    describe('grouped search', () => {
      it('answers every entity kind, each group ranked and limited', async () => {
        const s = storage()
        for (let i = 0; i < 4; i++) await s.components.create({ name: `Relay ${i}`, ipn: `REL-${i}`, tags: ['relays'] })
        await s.symbols.create({ name: 'Relay_SPDT', library: 'Relay' })
        await s.locations.create({ name: 'Relay drawer' })
        const grouped = await s.search.search('rel', 2)
        expect(Object.keys(grouped).sort()).toEqual(['components', 'footprints', 'locations', 'manufacturers', 'mpns', 'symbols', 'tags'])
        expect(grouped.components.map((h) => h.label)).toEqual(['Relay 0', 'Relay 1'])
        expect(grouped.symbols.map((h) => h.label)).toEqual(['Relay_SPDT'])
        expect(grouped.tags.map((h) => h.detail)).toEqual(['4 components'])
        expect(grouped.locations).toHaveLength(1)
        expect(grouped.footprints).toEqual([])
        expect(grouped.manufacturers).toEqual([])
      })
    })

    describe('parametric search', () => {
      it('compares numbers with SI prefixes, bounds included, the type in any case', async () => {
        const s = storage()
        const r4k7 = await s.components.create({ name: 'R 4k7', ipn: 'R-1', parameters: [{ type: 'Resistance', value: '4k7' }] })
        const r10k = await s.components.create({ name: 'R 10k', ipn: 'R-2', parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }] })
        await s.components.create({ name: 'R 100k', ipn: 'R-3', parameters: [{ type: 'Resistance', value: '100k' }] })
        await s.components.create({ name: 'C 10n', ipn: 'C-1', parameters: [{ type: 'Capacitance', value: '10n' }] })
        const ids = async (min: string | number | undefined, max: string | number | undefined) =>
          (await s.search.parametric([{ type: 'RESISTANCE', min, max }], { limit: 10 })).items.map((c) => c.id)
        expect(await ids('4.7k', '10k')).toEqual([r4k7.id, r10k.id])
        expect(await ids(4701, 10_000)).toEqual([r10k.id])
        expect(await ids(undefined, '0.0047M')).toEqual([r4k7.id])
        expect(await ids('1M', undefined)).toEqual([])
      })

      it('requires every condition and matches eq as text in any case', async () => {
        const s = storage()
        const both = await s.components.create({ name: 'C 100n X7R', ipn: 'C-1', parameters: [{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'X7R' }] })
        await s.components.create({ name: 'C 100n C0G', ipn: 'C-2', parameters: [{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'C0G' }] })
        await s.components.create({ name: 'C 1u X7R', ipn: 'C-3', parameters: [{ type: 'Capacitance', value: '1u' }, { type: 'Dielectric', value: 'X7R' }] })
        const page = await s.search.parametric([{ type: 'capacitance', min: '10n', max: '220n' }, { type: 'dielectric', eq: 'x7r' }], { limit: 10 })
        expect(page.items.map((c) => c.id)).toEqual([both.id])
        expect(page.total).toBe(1)
        expect(page.items[0]!.parameters).toEqual([{ type: 'Capacitance', value: '100n' }, { type: 'Dielectric', value: 'X7R' }])
      })

      it('never puts a value that is not a number in a range', async () => {
        const s = storage()
        await s.components.create({ name: 'Odd', ipn: 'O-1', parameters: [{ type: 'Tolerance', value: 'tight' }] })
        const pct = await s.components.create({ name: 'Pct', ipn: 'O-2', parameters: [{ type: 'Tolerance', value: '1%' }] })
        expect((await s.search.parametric([{ type: 'Tolerance', max: 5 }], { limit: 10 })).items.map((c) => c.id)).toEqual([pct.id])
        expect((await s.search.parametric([{ type: 'Tolerance', eq: 'TIGHT' }], { limit: 10 })).total).toBe(1)
      })

      it('leaves deleted components out and pages by id with the total', async () => {
        const s = storage()
        const ids: string[] = []
        for (let i = 0; i < 7; i++) ids.push((await s.components.create({ name: `L ${i}`, ipn: `L-${i}`, parameters: [{ type: 'Inductance', value: `${i + 1}u` }] })).id)
        await s.components.delete(ids[2]!)
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await s.search.parametric([{ type: 'Inductance', min: '1u' }], { limit: 4, cursor })
          expect(page.total).toBe(6)
          seen.push(...page.items.map((c) => c.id))
          cursor = page.nextCursor ?? undefined
        } while (cursor)
        expect(seen).toEqual(ids.filter((_, i) => i !== 2))
      })

      it('rejects a bound that is not a number, naming the condition', async () => {
        const s = storage()
        await s.components.create({ name: 'R', ipn: 'R-1', parameters: [{ type: 'Resistance', value: '1k' }] })
        await expect(s.search.parametric([{ type: 'Resistance', min: '1k' }, { type: 'Resistance', max: 'lots' }], { limit: 10 })).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [{ path: 'body.conditions[1].max' }],
        })
        await expect(s.search.parametric([{ type: 'Resistance', min: '' }], { limit: 10 })).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [{ path: 'body.conditions[0].min' }],
        })
      })

      it('finds components by parameter ranges with SI prefixes', async () => {
        const s = storage()
        const r1 = await s.components.create({ name: 'R1', parameters: [{ type: 'Resistance', value: '4k7' }, { type: 'Package', value: '0603' }] })
        await s.components.create({ name: 'R2', parameters: [{ type: 'Resistance', value: '100k' }, { type: 'Package', value: '0603' }] })
        const page = await s.search.parametric([{ type: 'resistance', min: '1k', max: 10_000 }, { type: 'Package', eq: '0603' }], { limit: 10 })
        expect(page.items.map((c) => c.id)).toEqual([r1.id])
        expect(page.total).toBe(1)
        await expect(s.search.parametric([{ type: 'Resistance', min: 'lots' }], { limit: 10 })).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
          errors: [{ path: 'body.conditions[0].min' }],
        })
      })
    })
  })
}
