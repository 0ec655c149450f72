import type { Component } from '@complib/client-sdk'
import { describe, expect, it } from 'vitest'
import { diffVersions } from '../../src/screens/component/history-diff'

const V1 = {
  id: 'cmp_1',
  version: 1,
  name: '10k resistor',
  ipn: 'RES-0001',
  description: null,
  status: 'draft',
  category: 'Passives/Resistors',
  tags: ['smd'],
  parameters: [{ type: 'Resistance', value: '10k', unit: 'Ω' }],
  mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }],
  symbols: [{ id: 'sym_1', name: 'Device:R' }],
  footprints: [],
  attachments: [],
  kicadValue: null,
  excludeFromBom: false,
  excludeFromBoard: false,
  excludeFromSim: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  deletedAt: null,
} as unknown as Component

describe('diffVersions: what one version changed against the one before', () => {
  it('names each changed field with its old and new value, in the form’s order', () => {
    const v2 = {
      ...V1,
      version: 2,
      description: '10k 1% 0603',
      status: 'active',
      tags: ['smd', 'e96'],
      parameters: [
        { type: 'Resistance', value: '10k', unit: 'Ω' },
        { type: 'Tolerance', value: '1', unit: '%' },
      ],
      footprints: [{ id: 'fp_1', name: 'R_0603_1608Metric' }],
      excludeFromBom: true,
      updatedAt: '2025-02-01T00:00:00.000Z',
    } as Component
    expect(diffVersions(V1, v2)).toEqual([
      { field: 'description', label: 'Description', before: '', after: '10k 1% 0603' },
      { field: 'status', label: 'Status', before: 'draft', after: 'active' },
      { field: 'tags', label: 'Tags', before: 'smd', after: 'smd, e96' },
      { field: 'parameters', label: 'Parameters', before: 'Resistance 10k Ω', after: 'Resistance 10k Ω; Tolerance 1 %' },
      { field: 'footprints', label: 'Footprints', before: '', after: 'R_0603_1608Metric' },
      { field: 'excludeFromBom', label: 'KiCad: exclude from BOM', before: 'no', after: 'yes' },
    ])
  })

  it('covers name, ipn, category, MPNs, symbols and the KiCad value', () => {
    const v2 = {
      ...V1,
      name: '10k',
      ipn: 'RES-0002',
      category: null,
      mpns: [{ manufacturer: 'Vishay', partNumber: 'CRCW060310K0FKEA' }],
      symbols: [],
      kicadValue: '10k 1%',
    } as Component
    expect(diffVersions(V1, v2).map((c) => [c.field, c.before, c.after])).toEqual([
      ['name', '10k resistor', '10k'],
      ['ipn', 'RES-0001', 'RES-0002'],
      ['category', 'Passives/Resistors', ''],
      ['mpns', 'Yageo RC0603FR-0710KL', 'Vishay CRCW060310K0FKEA'],
      ['symbols', 'Device:R', ''],
      ['kicadValue', '', '10k 1%'],
    ])
  })

  it('leaves out what changes with every write or is listed apart (version, timestamps, attachments)', () => {
    const v2 = { ...V1, version: 7, updatedAt: '2026-01-01T00:00:00.000Z', attachments: [{ id: 'att_1', name: 'datasheet.pdf' }], deletedAt: '2026-01-01T00:00:00.000Z' } as Component
    expect(diffVersions(V1, v2)).toEqual([])
  })

  it('a reorder of rows is a change (the order is what KiCad and exports show)', () => {
    const two = { ...V1, tags: ['a', 'b'] } as Component
    expect(diffVersions(two, { ...two, tags: ['b', 'a'] } as Component)).toEqual([{ field: 'tags', label: 'Tags', before: 'a, b', after: 'b, a' }])
  })
})
