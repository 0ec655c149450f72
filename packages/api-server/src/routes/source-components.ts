import { Component, ComponentOffer, Enrich, EnrichResult, FieldProvenance, FromSource, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { created, etag } from '../routing/reply'
import { createFromSource, enrichFromSource } from '../sources/library'

const IdParams = z.object({ id: idSchema('component') })
/** What a call that asks the provider may answer beside its own errors (decision 1606); 404 for a source or part that does not exist. */
const PROVIDER_ERRORS = ['BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'TOO_MANY_REQUESTS', 'CONFLICT', 'NOT_FOUND'] as const

/** Components made from, and filled from, the configured sources (decision 1600). */
export const sourceComponentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/components/from-source',
    group: 'components',
    operationId: 'createComponentFromSource',
    permission: 'library:write',
    summary: 'Create a component from a part at a source',
    description:
      "One step: the part's MPN, description, parameters (onto the library's parameter types where names match), lifecycle as the status, datasheet link, offers, and the library's category its hints name (or `category`). Each field remembers the source (`GET /api/components/{id}/provenance`). All of it lands, or none.",
    body: FromSource,
    errors: PROVIDER_ERRORS,
    responses: { 201: { description: 'Created', schema: Component, headers: { etag: { description: 'The record version' }, location: { description: 'URL of the new component' } } } },
    handler: async ({ body, services, event }) => {
      const component = await createFromSource(services, body, event.req.signal)
      const reply = created(component, `/api/components/${component.id}`)
      reply.headers.etag = etag(component.version)
      return reply
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/components/{id}/enrich',
    group: 'components',
    operationId: 'enrichComponent',
    permission: 'library:write',
    summary: "Compare a component with a part at a source, field by field, and apply the chosen fields",
    description:
      "Without `ref`, the part whose MPN is the component's first is looked up. `changes` lists every field that differs; those in `fields` (all by default) are applied unless `dryRun`, in one transaction at the version read (a change made meanwhile is a 412). A status the library's lifecycle does not allow is listed with a `note` and never applied.",
    params: IdParams,
    body: Enrich,
    errors: [...PROVIDER_ERRORS, 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The differences, and the component as it is now', schema: EnrichResult } },
    handler: async ({ params, body, services, event }) => await enrichFromSource(services, params.id, body, event.req.signal),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/offers',
    group: 'components',
    operationId: 'listComponentOffers',
    permission: 'library:read',
    summary: "A component's supplier offers: stock, minimums and price breaks, as each source last gave them",
    params: IdParams,
    responses: { 200: { description: 'Offers, by supplier', schema: z.array(ComponentOffer) } },
    handler: async ({ params, services }) => {
      await services.storage.components.get(params.id)
      return await services.storage.offers.list(params.id)
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/components/{id}/provenance',
    group: 'components',
    operationId: 'listComponentProvenance',
    permission: 'library:read',
    summary: "Where each of a component's fields was filled from, and when",
    params: IdParams,
    responses: { 200: { description: 'Provenance, by field', schema: z.array(FieldProvenance) } },
    handler: async ({ params, services }) => {
      await services.storage.components.get(params.id)
      return await services.storage.provenance.list(params.id)
    },
  }),
]
