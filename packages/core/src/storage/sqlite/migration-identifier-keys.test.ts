import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSqlite } from './engine/driver'
import { afterEach, describe, expect, it } from 'vitest'
import { createSqliteStorage } from './storage'
import { SqliteExecutor } from './engine/executor'
import { migrate, SCHEMA_VERSION_BEFORE_IDENTIFIER_KEYS } from './schema'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A library as the schema before identifier keys held it, with names that now collide. */
async function _oldLibrary(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'complib-identifier-keys-'))
  dirs.push(dir)
  const db = openSqlite(join(dir, 'complib.db'))
  const ex = new SqliteExecutor(db)
  migrate(ex, undefined, SCHEMA_VERSION_BEFORE_IDENTIFIER_KEYS)
  const component = (id: string, ipn: string, day: number, deletedAt: string | null = null) =>
    ex.run(`INSERT INTO components (id, ipn, name, status, created_at, updated_at, deleted_at, version) VALUES (?, ?, ?, 'active', ?, ?, ?, 1)`, [
      id,
      ipn,
      `part ${ipn}`,
      `2020-01-0${day}T00:00:00.000Z`,
      `2020-01-0${day}T00:00:00.000Z`,
      deletedAt,
    ])
  component('cmp_01old', 'ÀX-1', 1)
  component('cmp_02new', 'àX-1', 2)
  component('cmp_03kelvin', '\u212aR-1', 3)
  component('cmp_04ascii', 'KR-1', 4)
  component('cmp_05gone', 'àx-1', 5, '2020-02-01T00:00:00.000Z')
  const named = (table: string, id: string, name: string, day: number, extra = '') =>
    ex.run(`INSERT INTO ${table} (id, name, created_at, updated_at, version${extra ? `, ${extra}` : ''}) VALUES (?, ?, ?, ?, 1${extra ? ', ?' : ''})`, [
      id,
      name,
      `2020-01-0${day}T00:00:00.000Z`,
      `2020-01-0${day}T00:00:00.000Z`,
      ...(extra ? ['text'] : []),
    ])
  named('tags', 'tag_01', 'SMD', 1)
  named('tags', 'tag_02', 'ＳＭＤ', 2)
  named('parameter_types', 'ptp_01', 'Résistance', 1, 'kind')
  named('parameter_types', 'ptp_02', 'Re\u0301sistance', 2, 'kind')
  named('manufacturers', 'mfr_01', 'Texas Instruments', 1)
  ex.run(`UPDATE manufacturers SET aliases = '["ＴＩ"]' WHERE id = 'mfr_01'`)
  named('locations', 'loc_01', 'Shelf É', 1)
  named('locations', 'loc_02', 'shelf e\u0301', 2)
  db.close()
  return dir
}

describe('identifier keys migration', () => {
  it('keeps records that collide under the new rule, gives the key to the oldest, and names the others in the log', async () => {
    const log: string[] = []
    const storage = await createSqliteStorage({ dir: await _oldLibrary(), log: (m) => log.push(m) })
    try {
      const kept = log.find((m) => m.includes('identifiers'))
      expect(kept).toBeDefined()
      for (const id of ['cmp_02new', 'cmp_04ascii', 'tag_02', 'ptp_02', 'loc_02']) expect(kept).toContain(id)
      for (const id of ['cmp_01old', 'cmp_03kelvin', 'cmp_05gone', 'tag_01', 'ptp_01', 'mfr_01', 'loc_01']) expect(kept).not.toContain(`${id} (`)

      // The oldest holds the name; the newer one is still there, by id, as it was typed.
      expect((await storage.components.getByIpn('àx-1')).id).toBe('cmp_01old')
      expect((await storage.components.getByIpn('kr-1')).id).toBe('cmp_03kelvin')
      expect((await storage.components.get('cmp_02new')).ipn).toBe('àX-1')
      await expect(storage.components.create({ name: 'x', ipn: 'Àx-1' })).rejects.toMatchObject({ code: 'CONFLICT' })

      // A kept record can still be edited, sent back with its own ipn, and renamed to a free one.
      await storage.components.update('cmp_02new', { ipn: 'àX-1', description: 'still here' })
      await expect(storage.components.update('cmp_02new', { ipn: 'ÀX-1' })).rejects.toMatchObject({ code: 'CONFLICT' })
      expect((await storage.components.update('cmp_02new', { ipn: 'AX-2' })).ipn).toBe('AX-2')
      expect((await storage.components.getByIpn('ax-2')).id).toBe('cmp_02new')
      // A deleted component got its key: restoring it while the ipn is taken is a conflict.
      await expect(storage.components.restore('cmp_05gone')).rejects.toMatchObject({ code: 'CONFLICT' })

      await storage.tags.update('tag_02', { color: '#ff0000' })
      const part = await storage.components.create({ name: 'y', tags: ['smd'], mpns: [{ manufacturer: 'ti', partNumber: 'NE555' }] })
      expect(part.tags).toEqual(['SMD'])
      expect(part.mpns).toEqual([{ manufacturer: 'Texas Instruments', partNumber: 'NE555' }])
      await storage.locations.update('loc_02', { description: 'left' })
      await expect(storage.locations.create({ name: 'SHELF É' })).rejects.toMatchObject({ code: 'CONFLICT' })
    } finally {
      await storage.close()
    }
  })
})
