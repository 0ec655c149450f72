import { idSchema, KicadSettings, Settings, SettingsPatch } from '@complib/core'
import * as z from 'zod'
import { KicadPart, toKicadPart } from '../kicad/fields'
import { kicadRefLoader } from '../kicad/part-refs'
import { defineRoute } from '../routing/define-route'

export const settingsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/settings',
    group: 'settings',
    operationId: 'getSettings',
    permission: 'settings:admin',
    summary: 'Server settings',
    responses: { 200: { description: 'The settings', schema: Settings } },
    handler: ({ services }) => services.storage.settings.get(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/settings/kicad',
    group: 'settings',
    operationId: 'getKicadSettings',
    permission: 'library:read',
    summary: 'What KiCad is served: the KiCad settings, for anyone who reads the library',
    description: 'The `kicad` part of the server settings (decision 0634). They hold nothing secret, and whoever points KiCad at the library may want to know which fields it gets; changing them stays `PATCH /api/settings` (admins).',
    responses: { 200: { description: 'The KiCad settings', schema: KicadSettings } },
    handler: async ({ services }) => (await services.storage.settings.get()).kicad,
  }),
  defineRoute({
    method: 'POST',
    path: '/api/settings/kicad/preview',
    group: 'settings',
    operationId: 'previewKicadPart',
    permission: 'library:read',
    summary: 'One part as KiCad would get it with the KiCad settings given',
    description:
      'For the KiCad screen: the settings being edited are checked as `PATCH /api/settings` checks them and applied to the part, nothing is saved. The answer is what `GET /api/kicad/v1/parts/{id}.json` would send once they are (decision 1419).',
    body: z.strictObject({ componentId: idSchema('component'), kicad: KicadSettings }).meta({ id: 'KicadPreviewRequest' }),
    errors: ['NOT_FOUND'],
    responses: { 200: { description: 'The part as KiCad would get it', schema: KicadPart } },
    handler: async ({ body, services, url }) => {
      const c = await services.storage.components.get(body.componentId)
      return toKicadPart(c, await kicadRefLoader(services.storage, url.origin).one(c), body.kicad)
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/settings',
    group: 'settings',
    operationId: 'patchSettings',
    permission: 'settings:admin',
    summary: 'Change server settings',
    description: 'Each key given replaces that setting whole: `outbound` and `kicad` are sent complete, and what a `kicad` object leaves out takes its default (decision 0634). A refused patch changes nothing.',
    body: SettingsPatch,
    responses: { 200: { description: 'The settings', schema: Settings } },
    handler: async ({ body, services, auth }) => {
      const settings = await services.storage.settings.update(body)
      auth.auditDetails.changed = Object.keys(body)
      return settings
    },
  }),
]
