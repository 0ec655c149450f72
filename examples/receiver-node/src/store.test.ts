import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_SEEN, openStore } from './store'

let dir: string
let file: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'receiver-node-store-'))
  file = join(dir, 'components.json')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const onDisk = async () => JSON.parse(await readFile(file, 'utf8'))

describe('openStore', () => {
  it('upserts by id: a later batch replaces a component, others stay', async () => {
    const store = await openStore(file)
    await store.apply('msg_1', [{ id: 'cmp_a', name: 'A' }, { id: 'cmp_b', name: 'B' }])
    await store.apply('msg_2', [{ id: 'cmp_a', name: 'A2' }])
    expect((await onDisk()).components).toEqual({ cmp_a: { id: 'cmp_a', name: 'A2' }, cmp_b: { id: 'cmp_b', name: 'B' } })
  })

  it('applies a webhook-id once: a re-sent old batch does not undo a newer one', async () => {
    const store = await openStore(file)
    expect(await store.apply('msg_1', [{ id: 'cmp_a', name: 'old' }])).toEqual({ duplicate: false, upserted: 1 })
    await store.apply('msg_2', [{ id: 'cmp_a', name: 'new' }])
    expect(await store.apply('msg_1', [{ id: 'cmp_a', name: 'old' }])).toEqual({ duplicate: true, upserted: 0 })
    expect((await onDisk()).components.cmp_a.name).toBe('new')
  })

  it('remembers applied webhook-ids across a restart', async () => {
    await (await openStore(file)).apply('msg_1', [{ id: 'cmp_a', name: 'A' }])
    const reopened = await openStore(file)
    expect(reopened.read().components.cmp_a).toEqual({ id: 'cmp_a', name: 'A' })
    expect((await reopened.apply('msg_1', [{ id: 'cmp_a', name: 'changed' }])).duplicate).toBe(true)
  })

  it('keeps every batch of concurrent applies (writes are queued)', async () => {
    const store = await openStore(file)
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.apply(`msg_${i}`, [{ id: `cmp_${i}`, name: `part ${i}` }])))
    const data = await onDisk()
    expect(Object.keys(data.components)).toHaveLength(20)
    expect(data.seenWebhookIds).toHaveLength(20)
    expect(await readdir(dir)).toEqual(['components.json'])
  })

  it('keeps the last MAX_SEEN webhook-ids', async () => {
    await writeFile(file, JSON.stringify({ components: {}, seenWebhookIds: Array.from({ length: MAX_SEEN }, (_, i) => `msg_${i}`) }))
    const store = await openStore(file)
    await store.apply('msg_new', [{ id: 'cmp_a' }])
    const seen = (await onDisk()).seenWebhookIds
    expect(seen).toHaveLength(MAX_SEEN)
    expect(seen[0]).toBe('msg_1')
    expect(seen.at(-1)).toBe('msg_new')
  })

  it('a failed write changes nothing in memory and leaves no temporary file', async () => {
    const store = await openStore(file)
    await store.apply('msg_1', [{ id: 'cmp_a', name: 'A' }])
    // A non-empty directory where the file goes: the rename fails, even for root.
    await rm(file)
    await mkdir(join(file, 'blocker'), { recursive: true })
    await expect(store.apply('msg_2', [{ id: 'cmp_a', name: 'B' }])).rejects.toThrow()
    expect(store.read().components.cmp_a!.name).toBe('A')
    expect((await readdir(dir)).sort()).toEqual(['components.json'])
    await rm(file, { recursive: true })
    expect((await store.apply('msg_2', [{ id: 'cmp_a', name: 'B' }])).duplicate).toBe(false)
    expect((await onDisk()).components.cmp_a.name).toBe('B')
  })
})
