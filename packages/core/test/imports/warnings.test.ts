import { describe, expect, it } from 'vitest'
import { mappingWarnings } from '../../src/imports/warnings'
import { proposeMapping } from '../../src/imports/presets'

describe('mapping warnings', () => {
  it('none for a plain mapping', () => {
    const columns = ['Name', 'Manufacturer', 'MPN']
    expect(mappingWarnings(columns, proposeMapping(columns, 'spreadsheet'))).toEqual([])
  })

  it('two part-number columns with one manufacturer: the second is named; numbered pairs are not', () => {
    expect(mappingWarnings(['Name', 'MPN', 'Mfr PN', 'Manufacturer'], { Name: 'name', MPN: 'partNumber', 'Mfr PN': 'partNumber', Manufacturer: 'manufacturer' })).toEqual([
      { column: 'Mfr PN', message: expect.stringMatching(/"MPN" and "Mfr PN" both give an MPN/) },
    ])
    const pairs = ['Name', 'Manufacturer 1', 'MPN 1', 'Manufacturer 2', 'MPN 2']
    expect(mappingWarnings(pairs, proposeMapping(pairs, 'spreadsheet'))).toEqual([])
  })

  it('a Part Number beside an MPN is proposed as the ipn, alone it stays the MPN, and an ipn column keeps it', () => {
    expect(proposeMapping(['Part Number', 'MPN'], 'spreadsheet')).toEqual({ 'Part Number': 'ipn', MPN: 'partNumber' })
    expect(proposeMapping(['Part Number', 'Name'], 'spreadsheet')).toEqual({ 'Part Number': 'partNumber', Name: 'name' })
    expect(proposeMapping(['IPN', 'Part Number', 'MPN'], 'spreadsheet')).toEqual({ IPN: 'ipn', 'Part Number': 'partNumber', MPN: 'partNumber' })
  })

  it('no names: said for the mapping as a whole', () => {
    expect(mappingWarnings(['Description'], { Description: 'description' })).toEqual([{ column: null, message: expect.stringMatching(/every new part will be invalid/) }])
  })
})
