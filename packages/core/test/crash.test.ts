import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createSqliteStorage } from '../src/storage/sqlite/storage'

const writer = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'complib-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Acks {
  created: Map<string, number>
  patched: Map<string, number>
}

/** Runs the writer until it has acknowledged `minAcks` writes, then SIGKILLs it after a random delay. */
function writeThenKill(start: number, minAcks: number): Promise<Acks> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, String(start)], { stdio: ['ignore', 'pipe', 'inherit'] })
  const acks: Acks = { created: new Map(), patched: new Map() }
  let buffer = ''
  let armed = false
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop()!
      for (const line of lines) {
        const [op, id, i] = line.split(' ')
        if (op === 'create') acks.created.set(id!, Number(i))
        if (op === 'patch') acks.patched.set(id!, Number(i))
      }
      if (!armed && acks.created.size >= minAcks) {
        armed = true
        setTimeout(() => child.kill('SIGKILL'), 20 + Math.floor(Math.random() * 200))
      }
    })
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(acks) : reject(new Error(`writer exited with ${code}`))))
  })
}

describe('crash durability', () => {
  it('keeps every acknowledged write across kill -9, and nothing half-applied', { timeout: 120_000 }, async () => {
    const allCreated = new Map<string, number>()
    const allPatched = new Map<string, number>()
    for (let trial = 0; trial < 3; trial++) {
      const acks = await writeThenKill(trial * 1_000_000, 150)
      for (const [k, v] of acks.created) allCreated.set(k, v)
      for (const [k, v] of acks.patched) allPatched.set(k, v)

      const storage = await createSqliteStorage({ dir })
      try {
        const present = await storage.components.getMany([...allCreated.keys()])
        expect(present.length).toBe(allCreated.size)
        for (const c of present) {
          const i = allCreated.get(c.id)!
          expect(c.ipn).toBe(`CRASH-${i}`)
          if (allPatched.has(c.id)) expect(c.description).toBe(`patched ${i}`)
        }
        // Every component that exists, acknowledged or not, is whole: all its children landed with it.
        const everything = await storage.components.list({ limit: 100_000, sort: 'id', includeDeleted: true })
        for (const c of everything.items) {
          expect(c.tags).toHaveLength(2)
          expect(c.parameters).toHaveLength(2)
          expect(c.mpns).toHaveLength(1)
        }
      } finally {
        await storage.close()
      }
    }
    expect(allCreated.size).toBeGreaterThanOrEqual(450)
  })
})
