import { Settings, SettingsPatch } from '@complib/core'
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
    method: 'PATCH',
    path: '/api/settings',
    group: 'settings',
    operationId: 'patchSettings',
    permission: 'settings:admin',
    summary: 'Change server settings',
    body: SettingsPatch,
    responses: { 200: { description: 'The settings', schema: Settings } },
    handler: async ({ body, services, auth }) => {
      const settings = await services.storage.settings.update(body)
      auth.auditDetails.changed = Object.keys(body)
      return settings
    },
  }),
]
