import {
  ComplibError,
  ComponentIdsQuery,
  ENRICH_JOB_MAX,
  EnrichJobCreate,
  Job,
  PageQuery,
  Source,
  SourceCreate,
  SourcePatch,
  SourcePartResult,
  SourceRef,
  SourceSearchQuery,
  SourceSearchResult,
  SourceTypeInfo,
  idSchema,
} from '@complib/core'
import { assertValidCron } from '@complib/connector-webhook'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, etag, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'
import { patchSourceConfig, splitSourceConfig, toSourceView } from '../sources/config'
import { enrichJobsFor } from '../sources/background'
import { asProblem } from '../sources/library'

const IdParams = z.object({ id: idSchema('source') })
const ETAG = { etag: { description: 'The record version; send it back as If-Match to update safely' } }
/** What a call that asks the provider may answer beside its own errors (decision 1606). */
const PROVIDER_ERRORS = ['BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'TOO_MANY_REQUESTS', 'CONFLICT', 'NOT_FOUND'] as const

export const sourceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/sources/types',
    group: 'sources',
    operationId: 'listSourceTypes',
    permission: 'sources:read',
    summary: 'Source types this server can use, with their config schemas, secret fields, capabilities and limits',
    responses: { 200: { description: 'Types', schema: z.array(SourceTypeInfo) } },
    handler: ({ services }) =>
      services.sources.types.map((t) => ({
        type: t.type,
        title: t.title ?? t.type,
        description: t.description ?? '',
        documentation: t.documentation ?? null,
        configSchema: z.toJSONSchema(t.configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
        secretFields: [...t.secretFields],
        capabilities: { ...t.capabilities, pull: t.capabilities.pull ?? false },
        limits: t.limits,
      })),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/sources',
    group: 'sources',
    operationId: 'listSources',
    permission: 'sources:read',
    summary: 'List configured sources (credentials as hints only)',
    query: PageQuery,
    responses: { 200: { description: 'Sources', schema: z.array(Source), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.sources.list(query)
      return withHeaders(page.items.map(toSourceView), pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/sources',
    group: 'sources',
    operationId: 'createSource',
    permission: 'sources:admin',
    summary: 'Configure a source, and its scheduled refresh',
    description:
      'The config is the type\'s (`GET /api/sources/types`), credentials included: a Mouser source\'s is `{"apiKey": "…"}`. Credentials are write-only: answers show a hint of their last characters, and backups leave them out.',
    body: SourceCreate,
    responses: { 201: { description: 'Created', schema: Source, headers: { ...ETAG, location: { description: 'URL of the source' } } } },
    handler: async ({ body, services }) => {
      const type = services.sources.typeOf(body.type)
      const { config, secrets } = splitSourceConfig(type, body.config)
      if (body.refresh) assertValidCron(body.refresh.cron, 'body.refresh.cron')
      const stored = await services.storage.sources.create({ type: type.type, name: body.name, config, secrets, refresh: body.refresh })
      await enrichJobsFor(services.storage, services.sources).schedules.sync()
      const reply = created(toSourceView(stored), `/api/sources/${stored.id}`)
      reply.headers.etag = etag(stored.version)
      return reply
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/sources/{id}',
    group: 'sources',
    operationId: 'getSource',
    permission: 'sources:read',
    summary: 'Get a source',
    params: IdParams,
    responses: { 200: { description: 'The source', schema: Source, headers: ETAG } },
    handler: async ({ params, services }) => {
      const s = await services.storage.sources.get(params.id)
      return withHeaders(toSourceView(s), { etag: etag(s.version) })
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/sources/{id}',
    group: 'sources',
    operationId: 'patchSource',
    permission: 'sources:admin',
    ifMatch: true,
    summary: 'Change a source (name, config, credentials)',
    description: '`config` is merged into the current one, credentials included (RFC 7396: a member left out stays, `null` removes one), then validated by the type.',
    params: IdParams,
    body: SourcePatch,
    errors: ['PRECONDITION_FAILED'],
    responses: { 200: { description: 'The source', schema: Source, headers: ETAG } },
    handler: async ({ params, body, services, event }) => {
      const ifVersion = ifMatchVersion(event.req)
      const current = await services.storage.sources.get(params.id)
      const patch: Parameters<typeof services.storage.sources.update>[1] = {}
      if (body.name !== undefined) patch.name = body.name
      if (body.config !== undefined) Object.assign(patch, patchSourceConfig(services.sources.typeOf(current.type), current, body.config))
      if (body.refresh !== undefined) {
        if (body.refresh) assertValidCron(body.refresh.cron, 'body.refresh.cron')
        patch.refresh = body.refresh
      }
      const updated = await services.storage.sources.update(params.id, patch, { ifVersion })
      await enrichJobsFor(services.storage, services.sources).schedules.sync()
      return withHeaders(toSourceView(updated), { etag: etag(updated.version) })
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/sources/{id}',
    group: 'sources',
    operationId: 'deleteSource',
    permission: 'sources:admin',
    summary: 'Delete a source',
    description: 'The offers and provenance it wrote stay on their components, naming it as it was.',
    params: IdParams,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.sources.delete(params.id)
      services.sources.forget(params.id)
      await enrichJobsFor(services.storage, services.sources).schedules.sync()
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/sources/{id}/search',
    group: 'sources',
    operationId: 'searchSource',
    permission: 'sources:search',
    summary: 'Search a source by MPN or keywords',
    description: 'Each candidate has the `ref` to fetch it by (`GET /api/sources/{id}/part`) or to make a component of (`POST /api/components/from-source`). Answers are cached; `cached` says when the provider was not asked.',
    params: IdParams,
    query: SourceSearchQuery,
    errors: PROVIDER_ERRORS,
    responses: { 200: { description: 'Candidates, best first', schema: SourceSearchResult } },
    handler: async ({ params, query, services, event }) => {
      const source = await services.storage.sources.get(params.id)
      try {
        const answer = await services.sources.search(source, query.q, query.limit, { signal: event.req.signal })
        return { sourceId: source.id, candidates: answer.value, cached: answer.cached }
      } catch (error) {
        throw asProblem(error, source)
      }
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/sources/{id}/part',
    group: 'sources',
    operationId: 'getSourcePart',
    permission: 'sources:search',
    summary: 'One part as the source gives it, normalised (before it is made a component)',
    params: IdParams,
    query: z.object({ ref: SourceRef }),
    errors: PROVIDER_ERRORS,
    responses: { 200: { description: 'The part', schema: SourcePartResult } },
    handler: async ({ params, query, services, event }) => {
      const source = await services.storage.sources.get(params.id)
      try {
        const answer = await services.sources.fetch(source, query.ref, { signal: event.req.signal })
        return { sourceId: source.id, part: answer.value, cached: answer.cached }
      } catch (error) {
        throw asProblem(error, source)
      }
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/sources/{id}/enrich-jobs',
    group: 'sources',
    operationId: 'startEnrichJob',
    permission: 'library:write',
    summary: 'Enrich many components from a source, as a job with progress (a dry run unless `dryRun: false`)',
    description: `Components by \`componentIds\` or by the library's \`filter\` (at most ${ENRICH_JOB_MAX}), one after another within the provider's quota; each is enriched as \`POST /api/components/{id}/enrich\` would, in its own transaction. Poll \`GET /api/jobs/{jobId}\`: \`data\` has \`done\`/\`total\`, \`changed\`, \`unchanged\`, \`failed\`, which fields differ per component, and the first failures. Refused credentials or a spent daily quota end the job.`,
    params: IdParams,
    body: EnrichJobCreate,
    responses: { 202: { description: 'Started', schema: Job, headers: { location: { description: 'URL of the job' } } } },
    handler: async ({ params, body, services }) => {
      const source = await services.storage.sources.get(params.id)
      let ids = body.componentIds
      if (!ids) {
        if (!body.filter) throw new ComplibError('VALIDATION_FAILED', 'body: give componentIds or a filter', { errors: [{ path: 'body.componentIds', message: 'give componentIds or a filter' }] })
        const query = ComponentIdsQuery.safeParse({ ...body.filter, limit: ENRICH_JOB_MAX + 1 })
        if (!query.success) throw new ComplibError('VALIDATION_FAILED', `body.filter: ${query.error.issues[0]?.message ?? 'not a filter of the component list'}`, { errors: query.error.issues.map((i) => ({ path: ['body', 'filter', ...i.path].join('.'), message: i.message })) })
        ids = (await services.storage.components.listIds(query.data)).items
        if (ids.length > ENRICH_JOB_MAX) throw new ComplibError('VALIDATION_FAILED', `body.filter: more than ${ENRICH_JOB_MAX} components match; narrow it`, { errors: [{ path: 'body.filter', message: `more than ${ENRICH_JOB_MAX} components match` }] })
      }
      const job = await enrichJobsFor(services.storage, services.sources).jobs.start({ sourceId: source.id, componentIds: ids, fields: body.fields, dryRun: body.dryRun })
      return withHeaders(job, { location: `/api/jobs/${job.id}` }, 202)
    },
  }),
]
