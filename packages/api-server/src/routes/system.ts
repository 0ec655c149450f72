import { Health, LibraryStats, Version } from '@complib/core'
import { defineRoute } from '../routing/define-route'
import { APP_VERSION } from '../version'

const startedAt = Date.now()

export const systemRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/health',
    group: 'system',
    operationId: 'getHealth',
    permission: 'public',
    summary: 'Whether the service is up',
    responses: { 200: { description: 'The service answers', schema: Health } },
    handler: ({ services }) => {
      const writesStopped = services.storage.writesStopped?.() ?? null
      return {
        status: 'ok' as const,
        version: APP_VERSION,
        storage: services.storage.name,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        // Reads still work, so the server stays up for them; the field says what no longer does.
        ...(writesStopped ? { writesStopped } : {}),
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/version',
    group: 'system',
    operationId: 'getVersion',
    permission: 'library:read',
    summary: 'Version of the application build',
    responses: { 200: { description: 'The version', schema: Version } },
    handler: () => ({ version: APP_VERSION }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/stats',
    group: 'system',
    operationId: 'getStats',
    permission: 'library:read',
    summary: 'Counts of everything in the library',
    responses: { 200: { description: 'Counts', schema: LibraryStats } },
    handler: ({ services }) => services.storage.stats(),
  }),
]
