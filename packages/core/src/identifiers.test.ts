import { describe, expect, it } from 'vitest'
import { findRefusedCharacter, foldKey } from './identifiers'

describe('foldKey', () => {
  it('makes case variants, composed and decomposed, full-width and Kelvin-sign lookalikes the same key', () => {
    expect(foldKey('ÀX-1')).toBe(foldKey('àx-1'))
    expect(foldKey('\u00c9-1')).toBe(foldKey('E\u0301-1'))
    expect(foldKey('R-１２３')).toBe(foldKey('r-123'))
    expect(foldKey('\u212aR-1')).toBe(foldKey('KR-1'))
    expect(foldKey('Straße')).toBe(foldKey('STRASSE'))
    expect(foldKey('\u1e9e')).toBe(foldKey('ss'))
    // Dotless ı upper-cases to I, so it folds as i does (Unicode's own case fold keeps it apart): KIRMIZI is kırmızı.
    expect(foldKey('KIRMIZI')).toBe(foldKey('kırmızı'))
  })

  it('keeps identifiers that read differently apart', () => {
    expect(foldKey('R-1')).not.toBe(foldKey('R-2'))
    expect(foldKey('A')).not.toBe(foldKey('\u0391')) // Latin A, Greek Alpha: different scripts
  })

  it('drops default-ignorable characters an old record may hold', () => {
    expect(foldKey('R\u200b-1\u202e')).toBe(foldKey('r-1'))
  })

  it('is stable: the key of every code point is its own key', () => {
    for (let cp = 0; cp < 0x30000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const key = foldKey(String.fromCodePoint(cp))
      if (foldKey(key) !== key) expect.fail(`U+${cp.toString(16)}: ${key} folds again to ${foldKey(key)}`)
    }
  })
})

describe('findRefusedCharacter', () => {
  it('names zero-width, bidi, format and control characters, and passes visible text', () => {
    for (const c of ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u061c', '\u0000', '\n', '\u2028']) {
      expect(findRefusedCharacter(`R${c}1`), `U+${c.codePointAt(0)!.toString(16)}`).toMatch(/^U\+[0-9A-F]{4}$/)
    }
    expect(findRefusedCharacter('R\u202e1')).toBe('U+202E')
    expect(findRefusedCharacter('Ω-ÀX 10 µF ✓')).toBeNull()
  })
})
