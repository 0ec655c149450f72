import { DEFAULT_SETTINGS, Settings, type SettingsPatch } from '../../schemas/settings'
import type { SqlExecutor } from '../_internal/sql-executor'
import type { SettingsStore } from '../types'
import { now } from './_shared'
import type { StoreAccess, StoreRepo } from './repo'

/** The settings kept as rows, one key each, its value as JSON text. */
const KEYS = ['auditRetentionDays', 'outbound', 'kicad'] as const satisfies ReadonlyArray<keyof SettingsPatch>

export const settings = {
  get: async (ex) => await _get(ex),

  async update(ex, patch) {
    const at = now()
    for (const key of KEYS) {
      if (patch[key] === undefined) continue
      await ex.run('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [
        key,
        JSON.stringify(patch[key]),
        at,
      ])
    }
    return await _get(ex)
  },
} satisfies StoreRepo<SettingsStore>

/** How each method uses the database (Access). */
export const settingsAccess = { get: 'read', update: 'write' } as const satisfies StoreAccess<SettingsStore>

async function _get(ex: SqlExecutor): Promise<Settings> {
  const rows = await ex.all<{ key: string; value: string; updated_at: string }>('SELECT key, value, updated_at FROM settings')
  const out: Settings = structuredClone(DEFAULT_SETTINGS)
  for (const row of rows) {
    // A key this version does not know (written by a newer server sharing the database) is left alone.
    if (!(KEYS as readonly string[]).includes(row.key)) continue
    const key = row.key as (typeof KEYS)[number]
    // Read through the schema: a value stored before a field was added gets that field's default.
    Object.assign(out, { [key]: Settings.shape[key].parse(JSON.parse(row.value)) })
    if (out.updatedAt === null || row.updated_at > out.updatedAt) out.updatedAt = row.updated_at
  }
  return out
}
