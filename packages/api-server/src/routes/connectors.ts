import { randomBytes } from 'node:crypto'
import {
  ComplibError,
  Connector,
  ConnectorCode,
  ConnectorCodeUpdate,
  ConnectorCreate,
  ConnectorPatch,
  ConnectorTypeInfo,
  DryRunResult,
  PageQuery,
  RUN_DETAIL_BATCHES,
  Run,
  RunBatch,
  RunBatchesQuery,
  RunDetail,
  SecretRotate,
  idSchema,
  mergePatch,
  type StoredConnector,
} from '@complib/core'
import { checkConnectorCode } from '@complib/connector-webhook'
import * as z from 'zod'
import { defaultCodeOf, getConnectorType, parseConnectorConfig } from '../connectors/registry'
import { createRunEventStream } from '../connectors/run-events'
import { toConnectorView } from '../connectors/view'
import { defineRoute, type AppServices } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { Reply, created, etag, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const IdParams = z.object({ id: idSchema('connector') })
const RunParams = z.object({ runId: idSchema('run') })
export const connectorRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/connectors/types',
    group: 'connectors',
    operationId: 'listConnectorTypes',
    permission: 'connectors:read',
    summary: 'Connector types this server can run, with their config schemas',
    responses: { 200: { description: 'Types', schema: z.array(ConnectorTypeInfo) } },
    handler: ({ services }) =>
      services.connectorTypes.map((t) => ({
        type: t.type,
        title: t.title ?? t.type,
        description: t.description ?? '',
        configSchema: _inlineRoot(z.toJSONSchema(t.configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
        defaultCode: t.defaultCode ?? null,
      })),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connectors',
    group: 'connectors',
    operationId: 'listConnectors',
    permission: 'connectors:read',
    summary: 'List connectors',
    query: PageQuery,
    responses: { 200: { description: 'Connectors', schema: z.array(Connector), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.connectors.list(query)
      return withHeaders(page.items.map((c) => toConnectorView(c)), pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connectors',
    group: 'connectors',
    operationId: 'createConnector',
    permission: 'connectors:admin',
    summary: 'Create a connector',
    description:
      'The signing secret is never returned whole, only a hint: to verify deliveries, set `secret` yourself (`whsec_` + base64 of 24–64 random bytes) and give the same to the receiver. Omitted, one is generated.',
    body: ConnectorCreate,
    responses: { 201: { description: 'Created', schema: Connector, headers: { location: { description: 'URL of the connector' } } } },
    handler: async ({ body, services }) => {
      const type = getConnectorType(services.connectorTypes, body.type)
      const config = parseConnectorConfig(type, body.config)
      if (body.code !== undefined && body.code !== null) {
        if (type.defaultCode === undefined) {
          const message = `connectors of type "${type.type}" run no code`
          throw new ComplibError('VALIDATION_FAILED', `body.code: ${message}`, { errors: [{ path: 'body.code', message }] })
        }
        checkConnectorCode(body.code)
      }
      const stored = await services.storage.connectors.create({
        type: type.type,
        name: body.name,
        enabled: body.enabled,
        config,
        secret: body.secret ?? _generateSecret(),
        code: body.code ?? null,
      })
      await services.runner.syncSchedules()
      return created(toConnectorView(stored), `/api/connectors/${stored.id}`)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connectors/{id}',
    group: 'connectors',
    operationId: 'getConnector',
    permission: 'connectors:read',
    summary: 'Get a connector',
    params: IdParams,
    responses: { 200: { description: 'The connector', schema: Connector } },
    handler: async ({ params, services }) => {
      const c = await services.storage.connectors.get(params.id)
      return withHeaders(toConnectorView(c), { etag: etag(c.version) })
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/connectors/{id}',
    group: 'connectors',
    operationId: 'patchConnector',
    permission: 'connectors:admin',
    ifMatch: true,
    summary: 'Change a connector (name, enabled, config)',
    description: '`config` is merged into the current configuration (RFC 7396: members left out stay, `null` removes one), then validated by the connector type.',
    params: IdParams,
    body: ConnectorPatch,
    errors: ['PRECONDITION_FAILED'],
    responses: { 200: { description: 'The connector', schema: Connector } },
    handler: async ({ params, body, services, event }) => {
      const ifVersion = ifMatchVersion(event.req)
      const current = await services.storage.connectors.get(params.id)
      const patch: Parameters<typeof services.storage.connectors.update>[1] = {}
      if (body.name !== undefined) patch.name = body.name
      if (body.enabled !== undefined) patch.enabled = body.enabled
      if (body.config !== undefined) patch.config = parseConnectorConfig(getConnectorType(services.connectorTypes, current.type), mergePatch(current.config, body.config))
      const updated = await services.storage.connectors.update(params.id, patch, { ifVersion })
      await services.runner.syncSchedules()
      return withHeaders(toConnectorView(updated), { etag: etag(updated.version) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/connectors/{id}',
    group: 'connectors',
    operationId: 'deleteConnector',
    permission: 'connectors:admin',
    summary: 'Delete a connector and its runs',
    description: '409 while the connector has a queued or running run: cancel it first. A push racing the delete either starts first (the delete is a 409) or finds the connector gone (a 404).',
    params: IdParams,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      // The store refuses while a run is active, in the delete's own transaction (decision 0318).
      await services.storage.connectors.delete(params.id)
      await services.runner.syncSchedules()
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connectors/{id}/code',
    group: 'connectors',
    operationId: 'getConnectorCode',
    permission: 'connectors:read',
    summary: 'The code the connector runs: push(entities, config, helpers)',
    description: '409 for connector types loaded as packages: they run no code.',
    params: IdParams,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'The code', schema: ConnectorCode } },
    handler: async ({ params, services }) => {
      return _codeView(services, await services.storage.connectors.get(params.id))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/connectors/{id}/code',
    group: 'connectors',
    operationId: 'putConnectorCode',
    permission: 'connectors:admin',
    ifMatch: true,
    summary: 'Replace the connector code (null goes back to the default)',
    description: 'The code is compiled, never run, to check it: a syntax error is a 400 naming the line.',
    params: IdParams,
    body: ConnectorCodeUpdate,
    errors: ['PRECONDITION_FAILED', 'CONFLICT'],
    responses: { 200: { description: 'The code now in use', schema: ConnectorCode } },
    handler: async ({ params, body, services, event }) => {
      defaultCodeOf(getConnectorType(services.connectorTypes, (await services.storage.connectors.get(params.id)).type))
      if (body.code !== null) checkConnectorCode(body.code)
      return _codeView(services, await services.storage.connectors.update(params.id, { code: body.code }, { ifVersion: ifMatchVersion(event.req) }))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connectors/{id}/test',
    group: 'connectors',
    operationId: 'testConnector',
    permission: 'connectors:push',
    summary: 'Dry run: the code against a small sample, with sending captured (nothing leaves the machine)',
    description:
      '409 for connector types loaded as packages: they run no code, so nothing could be captured. ' +
      'Dry runs share a bounded pool: a few run at once and a few more wait; beyond that the answer is 429 with Retry-After.',
    params: IdParams,
    errors: ['CONFLICT', 'TOO_MANY_REQUESTS'],
    responses: { 200: { description: 'What the code did', schema: DryRunResult } },
    handler: ({ params, services }) => services.runner.dryRun(params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connectors/{id}/push',
    group: 'connectors',
    operationId: 'pushConnector',
    permission: 'connectors:push',
    summary: 'Push now: start a run over every non-deleted component',
    params: IdParams,
    description: 'Records the run over every component live now (their count and highest id) and starts sending them in batches of at most 250, planned as the run goes: a component created later is not sent, one deleted later is skipped. 409 while the connector has an active or interrupted run.',
    errors: ['CONFLICT'],
    responses: { 202: { description: 'The run, started', schema: Run, headers: { location: { description: 'URL of the run' } } } },
    handler: async ({ params, services }) => {
      const run = await services.runner.start(params.id, 'manual')
      return new Reply(202, _summary(run), { location: `/api/connector-runs/${run.id}` })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connectors/{id}/secret/rotate',
    group: 'connectors',
    operationId: 'rotateConnectorSecret',
    permission: 'connectors:admin',
    summary: 'Rotate the signing secret; the old one keeps signing beside it for a grace period',
    params: IdParams,
    body: SecretRotate,
    responses: { 200: { description: 'The connector, with the new secret’s hint', schema: Connector } },
    handler: async ({ params, body, services }) => {
      const expires = new Date(Date.now() + body.graceSeconds * 1000).toISOString()
      const c = await services.storage.connectors.rotateSecret(params.id, body.secret ?? _generateSecret(), expires)
      return toConnectorView(c)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connectors/{id}/runs',
    group: 'connectors',
    operationId: 'listConnectorRuns',
    permission: 'connectors:read',
    summary: 'Runs of a connector, newest first',
    params: IdParams,
    query: PageQuery,
    responses: { 200: { description: 'Runs', schema: z.array(Run), headers: PAGE_HEADERS } },
    handler: async ({ params, query, services, url }) => {
      await services.storage.connectors.get(params.id)
      const page = await services.storage.runs.list(params.id, query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connector-runs/{runId}',
    group: 'connectors',
    operationId: 'getConnectorRun',
    permission: 'connectors:read',
    summary: 'A run with its first batches and their attempts',
    description: `The run, and its first ${RUN_DETAIL_BATCHES} batches by index; \`batchesNextCursor\` continues at \`GET /api/connector-runs/{runId}/batches\` (decision 0319).`,
    params: RunParams,
    responses: { 200: { description: 'The run', schema: RunDetail } },
    handler: ({ params, services }) => services.storage.runs.get(params.runId, { batches: RUN_DETAIL_BATCHES }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connector-runs/{runId}/batches',
    group: 'connectors',
    operationId: 'listConnectorRunBatches',
    permission: 'connectors:read',
    summary: 'A run\'s batches, a page at a time',
    description: 'By index, with their attempts; `status=failed` keeps the failed ones (comma-separated for several).',
    params: RunParams,
    query: RunBatchesQuery,
    responses: { 200: { description: 'Batches', schema: z.array(RunBatch), headers: PAGE_HEADERS } },
    handler: async ({ params, query, services, url }) => {
      const page = await services.storage.runs.listBatches(params.runId, query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/connector-runs/{runId}/events',
    group: 'connectors',
    operationId: 'followConnectorRun',
    permission: 'connectors:read',
    summary: 'Live progress of a run, as server-sent events, until it ends',
    description:
      'A `text/event-stream`. Events: `progress` (the run without batches and logs, as in `GET /api/connector-runs/{runId}`) whenever a count or the status changes; ' +
      '`batch` (a RunBatch, with its attempts) when a batch succeeds or fails, those already finished first; `end` (the run) once it has succeeded, failed or been cancelled, ' +
      'after which the stream closes; `error` (`{ detail }`) if the run disappears meanwhile. A finished run answers with its batches, `progress` and `end` at once. ' +
      'Read it with `fetch` when an API key is needed (EventSource cannot send `Authorization`).',
    params: RunParams,
    responses: {
      200: {
        description: 'Server-sent events: `event: progress|batch|end|error` lines, each with one `data:` line of JSON',
        contentType: 'text/event-stream',
      },
    },
    handler: async ({ params, services, event }) => {
      const run = await services.storage.runs.get(params.runId, { batches: 0 })
      return new Response(createRunEventStream(services.storage, run, event.req.signal), {
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      })
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connector-runs/{runId}/cancel',
    group: 'connectors',
    operationId: 'cancelConnectorRun',
    permission: 'connectors:push',
    summary: 'Cancel a queued or running run',
    params: RunParams,
    errors: ['CONFLICT'],
    responses: { 200: { description: 'The cancelled run', schema: Run } },
    handler: ({ params, services }) => services.runner.cancel(params.runId),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/connector-runs/{runId}/resume',
    group: 'connectors',
    operationId: 'resumeConnectorRun',
    permission: 'connectors:push',
    summary: 'Resume a run interrupted by a crash; acknowledged batches are not sent again',
    params: RunParams,
    errors: ['CONFLICT'],
    responses: { 202: { description: 'The resumed run', schema: Run } },
    handler: async ({ params, services }) => new Reply(202, _summary(await services.runner.resume(params.runId))),
  }),
]

/** The code a connector runs: its own, or its type's default. */
function _codeView(services: AppServices, c: StoredConnector): z.infer<typeof ConnectorCode> {
  const defaultCode = defaultCodeOf(getConnectorType(services.connectorTypes, c.type))
  return { code: c.code ?? defaultCode, isDefault: c.code === null }
}

/** A run without its batches and their cursor (a RunDetail carries them). */
function _summary(run: Run): Run {
  const { batches: _batches, batchesNextCursor: _next, ...rest } = run as Run & { batches?: unknown; batchesNextCursor?: unknown }
  return rest
}

/** A schema registered with an id comes out as `{ $ref, $defs }`: hand clients the object itself. */
function _inlineRoot(schema: Record<string, unknown>): Record<string, unknown> {
  const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined
  const defs = schema.$defs as Record<string, Record<string, unknown>> | undefined
  if (!ref || !defs?.[ref] || Object.keys(defs).length !== 1) return schema
  return { $schema: schema.$schema, ...defs[ref] }
}

/** `whsec_` + base64 of 32 random bytes (decision 0722). */
function _generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}
