import { beforeEach, describe, expect, it, vi } from 'vitest'

// The key check must not answer faster the more of the key a guess gets right:
// both sides are hashed to 32 bytes and compared with crypto.timingSafeEqual, so
// the time depends on neither the guess's length nor its matching prefix. A timing
// measurement would be flaky on a shared machine; instead this pins the mechanism:
// every comparison with a key goes through timingSafeEqual on two equal-length digests.
const calls = vi.hoisted(() => [] as Array<[Buffer, Buffer]>)
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>()
  return {
    ...real,
    timingSafeEqual: (a: Buffer, b: Buffer) => {
      calls.push([Buffer.from(a), Buffer.from(b)])
      return real.timingSafeEqual(a, b)
    },
  }
})
const { isApiKey } = await import('../../src/auth/api-key')
const { presentedCredential } = await import('../../src/auth/authenticator')

/** The header as the server reads it: its credential, compared with the key. */
function isAuthorized(header: string | null, key: string): boolean {
  const presented = presentedCredential(header, undefined)
  return presented.kind === 'bearer' && isApiKey(presented.secret, key)
}

const KEY = 'k3y-with-some-length-0123456789abcdef'

beforeEach(() => {
  calls.length = 0
})

describe('API key comparison', () => {
  it('compares every guess in constant time: two 32-byte digests through timingSafeEqual, whatever its length or prefix', () => {
    const guesses = ['', 'x', KEY.slice(0, 1), KEY.slice(0, -1), `${KEY}x`, KEY.toUpperCase(), 'y'.repeat(10_000), KEY]
    for (const guess of guesses) {
      const before = calls.length
      const ok = isAuthorized(`Bearer ${guess}`, KEY)
      expect(ok, guess.slice(0, 20)).toBe(guess === KEY)
      // An empty guess is not a Bearer credential at all: refused before any comparison with the key.
      if (guess === '') continue
      expect(calls.length - before, guess.slice(0, 20)).toBe(1)
      const [a, b] = calls.at(-1)!
      expect([a.length, b.length]).toEqual([32, 32])
      // The secret side is a digest, never the key itself.
      expect(b.includes(Buffer.from(KEY))).toBe(false)
    }
  })

  it('accepts the key as Bearer or Token (what KiCad sends), with any case of the scheme, and nothing else', () => {
    expect(isAuthorized(`Bearer ${KEY}`, KEY)).toBe(true)
    expect(isAuthorized(`bearer ${KEY}`, KEY)).toBe(true)
    expect(isAuthorized(`Token ${KEY}`, KEY)).toBe(true)
    expect(isAuthorized(KEY, KEY)).toBe(false)
    expect(isAuthorized(`Basic ${KEY}`, KEY)).toBe(false)
    expect(isAuthorized(null, KEY)).toBe(false)
    expect(isAuthorized(`Bearer ${KEY} `, KEY)).toBe(true)
    expect(isAuthorized(`Bearer  ${KEY}`, KEY)).toBe(true)
  })
})
