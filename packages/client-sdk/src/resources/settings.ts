import type { KicadSettings, Settings, SettingsPatch } from '@complib/core'
import type * as z from 'zod'
import type { Transport } from '../_internal/transport'

/** A part as KiCad's HTTP library gets it: the fields KiCad shows, each `visible` or not. */
export interface KicadPartView {
  id: string
  name: string
  symbolIdStr: string
  exclude_from_bom: 'True' | 'False'
  exclude_from_board: 'True' | 'False'
  exclude_from_sim: 'True' | 'False'
  fields: Record<string, { value: string; visible?: 'True' | 'False' }>
}

/** `client.settings`: the server's settings (admins), shared by every server on the same database. */
export function createSettingsResource(t: Transport) {
  return {
    get: (): Promise<Settings> => t.call('GET', '/settings'),
    /** Absent fields stay; `outbound` and `kicad` each replace the whole object (its missing fields take their defaults). */
    patch: (body: z.input<typeof SettingsPatch>): Promise<Settings> => t.call('PATCH', '/settings', { body }),
    /** What KiCad's HTTP library serves (anyone who reads the library may read it). */
    kicad: (): Promise<KicadSettings> => t.call('GET', '/settings/kicad'),
    /** One component as KiCad would get it under `kicad` settings not saved yet; nothing is saved. */
    previewKicad: (componentId: string, kicad: z.input<typeof KicadSettings>): Promise<KicadPartView> =>
      t.call('POST', '/settings/kicad/preview', { body: { componentId, kicad } }),
  }
}

export type SettingsResource = ReturnType<typeof createSettingsResource>
