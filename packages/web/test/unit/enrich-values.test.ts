import { describe, expect, it } from 'vitest'
import { diffLines, fieldName, offerLine, valueLines } from '../../src/screens/component/enrich-values'

const OFFER = { supplier: 'Mouser', sku: '595-LM358DR', stock: 12345, currency: 'USD', priceBreaks: [{ quantity: 1, price: 0.52 }, { quantity: 2500, price: 0.153 }], fetchedAt: '2026-01-01T00:00:00Z' }

describe('an enrichment diff, as lines of text', () => {
  it('says each kind of value plainly: text, MPNs, parameters with units, offers with price breaks', () => {
    expect(valueLines('description', 'Dual op amp')).toEqual(['Dual op amp'])
    expect(valueLines('description', null)).toEqual([])
    expect(valueLines('mpns', [{ manufacturer: 'Texas Instruments', partNumber: 'LM358DR' }])).toEqual(['LM358DR (Texas Instruments)'])
    expect(valueLines('parameters', [{ type: 'Supply Voltage - Max', value: '30', unit: 'V' }, { type: 'Packaging', value: 'Reel', unit: null }])).toEqual(['Supply Voltage - Max: 30 V', 'Packaging: Reel'])
    expect(offerLine(OFFER)).toBe('Mouser 595-LM358DR: 12,345 in stock; 1+ $0.52, 2,500+ $0.153')
    expect(offerLine({ ...OFFER, sku: null, stock: null, currency: 'EUR', priceBreaks: [{ quantity: 10, price: 0.283 }] })).toBe('Mouser: stock not given; 10+ €0.283')
  })

  it('marks the lines one side has and the other lacks; an offer asked again at other times is the same line', () => {
    const d = diffLines('parameters', [{ type: 'Notes', value: 'ours' }], [{ type: 'Notes', value: 'ours' }, { type: 'Channels', value: '2' }])
    expect(d.current).toEqual([{ text: 'Notes: ours', changed: false }])
    expect(d.proposed).toEqual([
      { text: 'Notes: ours', changed: false },
      { text: 'Channels: 2', changed: true },
    ])
    const offers = diffLines('offers', [OFFER], [{ ...OFFER, fetchedAt: '2026-02-01T00:00:00Z' }])
    expect(offers.proposed[0]!.changed).toBe(false)
  })

  it('names the fields as the page does', () => {
    expect(['description', 'mpns', 'datasheet', 'somethingNew'].map(fieldName)).toEqual(['Description', 'Manufacturer part numbers', 'Datasheet', 'somethingNew'])
  })
})
