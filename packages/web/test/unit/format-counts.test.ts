import { describe, expect, it } from 'vitest'
import { pluralAtLeast } from '../../src/ui/format'

describe('counts the server may have stopped at', () => {
  it('say "more than" when bounded, and are plain counts otherwise', () => {
    expect(pluralAtLeast(10_000, true, 'component')).toBe('more than 10,000 components')
    expect(pluralAtLeast(1, false, 'component')).toBe('1 component')
    expect(pluralAtLeast(9_999, false, 'component')).toBe('9,999 components')
  })
})
