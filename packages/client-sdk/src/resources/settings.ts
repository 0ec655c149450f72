import type { Settings, SettingsPatch } from '@complib/core'
import type * as z from 'zod'
import type { Transport } from '../_internal/transport'

/** `client.settings`: the server's settings (admins), shared by every server on the same database. */
export function createSettingsResource(t: Transport) {
  return {
    get: (): Promise<Settings> => t.call('GET', '/settings'),
    /** Absent fields stay; `outbound` replaces the whole policy (its missing fields take their defaults). */
    patch: (body: z.input<typeof SettingsPatch>): Promise<Settings> => t.call('PATCH', '/settings', { body }),
  }
}

export type SettingsResource = ReturnType<typeof createSettingsResource>
