import type { Component, ParameterRule, SourcePart } from '@complib/core'
import { describe, expect, it } from 'vitest'
import { componentFromPart, diffPart, mapParameters, pickCategory, type LibraryShape } from '../../src/runtime/library-mapping'

const rule = (over: Partial<ParameterRule> & { name: string }): ParameterRule => ({ unit: null, kind: 'text', choices: null, min: null, max: null, ...over })
const SHAPE: LibraryShape = {
  rules: [rule({ name: 'Supply voltage', kind: 'number', unit: 'V' }), rule({ name: 'Package', kind: 'choice', choices: ['SOIC-8', 'DIP-8'] })],
  categories: ['ICs', 'ICs/Amplifiers', 'Passives/Resistors'],
  sourceTitle: 'Mouser',
}
const PART: SourcePart = {
  ref: '595-LM358DR',
  manufacturer: 'Texas Instruments',
  mpn: 'LM358DR',
  name: null,
  description: 'Dual op amp',
  categoryHints: ['Semiconductors', 'Amplifiers', 'Operational Amplifiers'],
  parameters: [
    { name: 'supply voltage', value: '32', unit: 'V' },
    { name: 'Package', value: 'soic-8', unit: null },
    { name: 'Package', value: 'SOIC', unit: null },
    { name: 'Slew Rate', value: '0.3 V/us', unit: null },
    { name: 'Mounting', value: '   ', unit: null },
  ],
  datasheetUrl: 'https://example.test/lm358.pdf',
  imageUrl: null,
  productUrl: null,
  lifecycle: 'nrnd',
  supplierStatus: 'Not Recommended for New Designs',
  package: 'SOIC-8',
  rohs: true,
  offers: [{ supplier: 'Mouser', sku: '595-LM358DR', url: null, stock: 10, minimumQuantity: 1, multiple: 1, packaging: null, currency: 'USD', priceBreaks: [{ quantity: 1, price: 0.5 }], fetchedAt: '2026-11-26T12:00:00.000Z' }],
}

describe('a part mapped onto the library', () => {
  it("takes the library's parameter types where names match, checked by their rules, and keeps the rest under the supplier's name", () => {
    expect(mapParameters(PART, SHAPE)).toEqual([
      { type: 'Supply voltage', value: '32', unit: 'V' },
      { type: 'Package', value: 'SOIC-8', unit: null },
      { type: 'Slew Rate', value: '0.3 V/us', unit: null },
    ])
    const refused = mapParameters({ ...PART, parameters: [{ name: 'Package', value: 'QFN-16', unit: null }] }, SHAPE)
    expect(refused).toEqual([{ type: 'Package (Mouser)', value: 'QFN-16', unit: null }])
  })

  it("puts it in the library's category its deepest hint names, never a new one", () => {
    expect(pickCategory(PART, SHAPE.categories)).toBe('ICs/Amplifiers')
    expect(pickCategory({ ...PART, categoryHints: ['Cables'] }, SHAPE.categories)).toBeNull()
  })

  it('makes a component named by its MPN, in the status its lifecycle stands for', () => {
    expect(componentFromPart(PART, SHAPE, {})).toMatchObject({
      name: 'LM358DR',
      status: 'nrnd',
      category: 'ICs/Amplifiers',
      mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }],
    })
    expect(componentFromPart({ ...PART, lifecycle: 'preview', manufacturer: null }, SHAPE, { category: null, ipn: 'IC-1' })).toMatchObject({
      status: 'draft',
      category: null,
      ipn: 'IC-1',
      mpns: [{ manufacturer: 'Unknown' }],
    })
  })
})

describe('an enrichment diff', () => {
  const component = {
    id: 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ',
    name: 'LM358',
    description: 'Dual op amp',
    status: 'obsolete',
    mpns: [],
    parameters: [
      { type: 'Supply voltage', value: '30', unit: 'V' },
      { type: 'Notes', value: 'ours', unit: null },
    ],
  } as unknown as Component

  it('names each field that differs, what the library holds and what the source gives', () => {
    const diff = diffPart({ component, datasheetUrls: [], offers: [] }, PART, SHAPE)
    expect(diff.map((d) => d.field)).toEqual(['mpns', 'parameters', 'status', 'datasheet', 'offers'])
    expect(diff.find((d) => d.field === 'parameters')!.proposed).toEqual([
      { type: 'Supply voltage', value: '32', unit: 'V' },
      { type: 'Notes', value: 'ours', unit: null },
      { type: 'Package', value: 'SOIC-8', unit: null },
      { type: 'Slew Rate', value: '0.3 V/us', unit: null },
    ])
    // obsolete → nrnd is not a move the library's lifecycle allows.
    expect(diff.find((d) => d.field === 'status')).toMatchObject({ current: 'obsolete', proposed: 'nrnd', blocked: expect.stringContaining('obsolete to nrnd') })
  })

  it('finds nothing to change once the library holds what the source gives', () => {
    const held = {
      component: { ...component, status: 'nrnd', mpns: [{ manufacturer: 'Texas Instruments', partNumber: 'lm358dr' }], parameters: mapParameters(PART, SHAPE) } as unknown as Component,
      datasheetUrls: [PART.datasheetUrl!],
      offers: PART.offers.map((o) => ({ ...o, fetchedAt: '2020-01-01T00:00:00.000Z', sourceId: null, ref: PART.ref })),
    }
    expect(diffPart(held, PART, SHAPE)).toEqual([])
  })
})
