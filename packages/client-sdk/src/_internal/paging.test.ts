import { describe, expect, it } from 'vitest'
import { nextCursor } from './paging'

describe('nextCursor', () => {
  it('reads the cursor of the rel="next" link', () => {
    expect(nextCursor('</api/components?limit=2&cursor=abc%3D>; rel="next"')).toBe('abc=')
  })

  it('picks rel="next" among several links and rel lists', () => {
    expect(nextCursor('</api/x?cursor=p>; rel="prev", </api/x?cursor=n>; rel="last next"')).toBe('n')
  })

  it('answers null without a next link', () => {
    expect(nextCursor(null)).toBeNull()
    expect(nextCursor('</api/x?cursor=p>; rel="prev"')).toBeNull()
    expect(nextCursor('</api/x?cursor=p>; rel="nextish"')).toBeNull()
  })
})
