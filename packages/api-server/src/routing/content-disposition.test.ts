import { describe, expect, it } from 'vitest'
import { attachmentDisposition } from './content-disposition'

describe('attachmentDisposition', () => {
  it('keeps an ASCII name as is', () => {
    expect(attachmentDisposition('ds.pdf')).toBe(`attachment; filename="ds.pdf"; filename*=UTF-8''ds.pdf`)
  })

  it('gives other names an ASCII fallback and their exact text in RFC 8187 form, quotes and parentheses encoded', () => {
    expect(attachmentDisposition('Ωmega "v2" (rev*).pdf')).toBe(`attachment; filename="_mega _v2_ (rev*).pdf"; filename*=UTF-8''%CE%A9mega%20%22v2%22%20%28rev%2A%29.pdf`)
  })

  it('never carries a line break or a character a header cannot hold', () => {
    const header = attachmentDisposition('a\r\nSet-Cookie: x=1\u0000\u00e9.txt')
    expect(() => new Headers({ 'content-disposition': header })).not.toThrow()
    expect(header).not.toMatch(/[\r\n\0]/)
  })

  it('turns a lone surrogate (which UTF-8 cannot carry) into U+FFFD instead of throwing', () => {
    expect(attachmentDisposition('x\uD800y.txt')).toBe(`attachment; filename="x_y.txt"; filename*=UTF-8''x%EF%BF%BDy.txt`)
  })
})
