import { describe, expect, it, vi } from 'vitest'

// Counts the scrypt calls running at once, around the real one.
const running = vi.hoisted(() => ({ now: 0, most: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>()
  return {
    ...real,
    scrypt: (...args: Parameters<typeof real.scrypt>) => {
      running.now++
      running.most = Math.max(running.most, running.now)
      const callback = args.at(-1) as (error: Error | null, key: Buffer) => void
      ;(real.scrypt as (...a: unknown[]) => void)(...args.slice(0, -1), (error: Error | null, key: Buffer) => {
        running.now--
        callback(error, key)
      })
    },
  }
})
// The quick tier runs a worker's files without isolation: a file before this one may have loaded
// the module with the real node:crypto already. Loaded afresh, it takes the mock.
vi.resetModules()
const { SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } = await import('../src/auth/passwords')

describe('password hashing (decision 1502)', () => {
  it('hashes with the parameters it names, verifies, and refuses a wrong password or a foreign hash', async () => {
    const hash = await hashPassword('correct horse battery')
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(SCRYPT_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 })
    expect(await verifyPassword('correct horse battery', hash)).toBe(true)
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false)
    expect(await verifyPassword('x', '$2b$12$bcrypt-is-not-ours')).toBe(false)
    expect(needsRehash(hash)).toBe(false)
    expect(needsRehash(await hashPassword('cheap', { N: 1024, r: 8, p: 1 }))).toBe(true)
  })

  it('runs at most two hashes at once, however many sign-ins arrive together', async () => {
    running.most = 0
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hashPassword(`password number ${i}`, { N: 2 ** 14, r: 8, p: 1 })))
    expect(new Set(hashes).size).toBe(6)
    expect(running.most).toBe(2)
  })
})
