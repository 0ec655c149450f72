import { describe, expect, it } from 'vitest'
import { component, fakeFetch, problem } from '../test/fake-fetch'
import { createClient } from './client'
import { PreconditionFailedError } from './errors'
import type { PatchManyItem, PatchManyProgress } from './patch-many'

/** A server whose PATCH answers after `delay(id)` ms; counts requests in flight. */
function slowServer(delay: (n: number) => number, fail?: (n: number) => Response | undefined) {
  let inFlight = 0
  let maxInFlight = 0
  const { fetch, requests } = fakeFetch(async (req, body) => {
    const n = Number(new URL(req.url).pathname.split('_').pop())
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    await new Promise((r) => setTimeout(r, delay(n)))
    inFlight--
    return fail?.(n) ?? Response.json(component(n, JSON.parse(body)))
  })
  return { fetch, requests, maxInFlight: () => maxInFlight }
}

const items = (count: number): PatchManyItem[] => Array.from({ length: count }, (_, i) => ({ id: `cmp_${i + 1}`, patch: { description: `d${i + 1}` } }))

describe('components.patchMany', () => {
  it('never has more than `concurrency` requests in flight, and patches every item', async () => {
    const server = slowServer((n) => (n % 3) * 5)
    const client = createClient({ baseUrl: 'http://x', fetch: server.fetch })
    const result = await client.components.patchMany(items(20), { concurrency: 3 })
    expect(result).toEqual({ patched: 20, failed: [], stopped: false })
    expect(server.maxInFlight()).toBe(3)
    expect(new Set(server.requests.map((r) => r.url.pathname)).size).toBe(20)
  })

  it('reports progress after each item, with the total of an array', async () => {
    const server = slowServer(() => 1)
    const progress: PatchManyProgress[] = []
    await createClient({ baseUrl: 'http://x', fetch: server.fetch }).components.patchMany(items(5), { concurrency: 2, onProgress: (p) => progress.push(p) })
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5])
    expect(progress.every((p) => p.total === 5 && p.failed === 0)).toBe(true)
    expect(progress.at(-1)!.patched).toBe(5)
    expect(progress.map((p) => p.component!.description).sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5'])
  })

  it('collects failures and goes on; a stale ifMatch fails as PreconditionFailedError', async () => {
    const server = slowServer(() => 1, (n) => (n === 2 ? problem(412, 'PRECONDITION_FAILED') : undefined))
    const list = items(4).map((i) => ({ ...i, ifMatch: 1 }))
    const result = await createClient({ baseUrl: 'http://x', fetch: server.fetch }).components.patchMany(list)
    expect(result.patched).toBe(3)
    expect(result.failed.map((f) => f.id)).toEqual(['cmp_2'])
    expect(result.failed[0]!.error).toBeInstanceOf(PreconditionFailedError)
    expect(server.requests.every((r) => r.headers.get('if-match') === '"1"')).toBe(true)
  })

  it('stops taking items after the first failure with stopOnError', async () => {
    const server = slowServer(() => 1, (n) => (n === 1 ? problem(409, 'INVALID_TRANSITION') : undefined))
    const result = await createClient({ baseUrl: 'http://x', fetch: server.fetch }).components.patchMany(items(10), { concurrency: 1, stopOnError: true })
    expect(result).toMatchObject({ patched: 0, stopped: true })
    expect(server.requests).toHaveLength(1)
  })

  it('pulls from an async source only as fast as edits go out (total unknown)', async () => {
    const server = slowServer(() => 2)
    let pulled = 0
    async function* source() {
      for (const item of items(12)) {
        pulled++
        yield item
      }
    }
    const seenPulled: number[] = []
    const result = await createClient({ baseUrl: 'http://x', fetch: server.fetch }).components.patchMany(source(), {
      concurrency: 2,
      onProgress: (p) => {
        expect(p.total).toBeNull()
        seenPulled.push(pulled - p.done)
      },
    })
    expect(result.patched).toBe(12)
    // Never more pulled than finished plus the ones in flight.
    expect(Math.max(...seenPulled)).toBeLessThanOrEqual(2)
  })

  it('refuses a concurrency outside 1–64', async () => {
    const client = createClient({ baseUrl: 'http://x', fetch: slowServer(() => 0).fetch })
    await expect(client.components.patchMany(items(1), { concurrency: 0 })).rejects.toBeInstanceOf(RangeError)
    await expect(client.components.patchMany(items(1), { concurrency: 65 })).rejects.toBeInstanceOf(RangeError)
  })

  it('ends with the error when the source fails', async () => {
    const server = slowServer(() => 0)
    async function* source() {
      yield items(1)[0]!
      throw new Error('listing broke')
    }
    await expect(createClient({ baseUrl: 'http://x', fetch: server.fetch }).components.patchMany(source())).rejects.toThrow('listing broke')
  })
})
