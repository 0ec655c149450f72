import { describe, expect, it } from 'vitest'
import { oneLine } from './log-line'

describe('oneLine', () => {
  it('writes out every line break as its escape and leaves the rest', () => {
    expect(oneLine('a\nb\r\nc\rd\u0085e\u2028f\u2029g')).toBe('a\\nb\\r\\nc\\rd\\u0085e\\u2028f\\u2029g')
    expect(oneLine('tab\there, back\\slash, é, 🙂')).toBe('tab\there, back\\slash, é, 🙂')
  })
})
