import { Component, Tag, TagCreate, TagListQuery, TagMerge, TagName, TagPatch, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { PAGE_HEADERS, pageHeaders } from '../routing/paging'
import { created, noContent, withHeaders } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('tag') })

export const tagRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/tags',
    group: 'tags',
    operationId: 'listTags',
    permission: 'library:read',
    summary: 'List tags with the number of components carrying each',
    query: TagListQuery,
    responses: { 200: { description: 'Tags, by name', schema: z.array(Tag), headers: PAGE_HEADERS } },
    handler: async ({ query, services, url }) => {
      const page = await services.storage.tags.list(query)
      return withHeaders(page.items, pageHeaders(url, page))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/tags',
    group: 'tags',
    operationId: 'createTag',
    permission: 'library:write',
    summary: 'Create a tag',
    body: TagCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Tag, headers: { location: { description: 'URL of the tag' } } } },
    handler: async ({ body, services }) => {
      const tag = await services.storage.tags.create(body)
      return created(tag, `/api/tags/${tag.id}`)
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/tags/{id}',
    group: 'tags',
    operationId: 'patchTag',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Rename or recolour a tag',
    params: Params,
    body: TagPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The tag', schema: Tag } },
    handler: ({ params, body, services, event }) => services.storage.tags.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/tags/{id}',
    group: 'tags',
    operationId: 'deleteTag',
    permission: 'library:write',
    summary: 'Delete a tag (it leaves every component)',
    params: Params,
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.tags.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/tags/{id}/merge',
    group: 'tags',
    operationId: 'mergeTags',
    permission: 'library:write',
    summary: 'Fold other tags into this one',
    params: Params,
    body: TagMerge,
    responses: { 200: { description: 'The merged tag', schema: Tag } },
    handler: ({ params, body, services }) => services.storage.tags.merge(params.id, body.sourceIds),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/components/{id}/tags',
    group: 'tags',
    operationId: 'setComponentTags',
    permission: 'library:write',
    summary: 'Replace the tags of a component (new names become tags)',
    params: z.object({ id: idSchema('component') }),
    body: z.array(TagName).max(100),
    responses: { 200: { description: 'The component', schema: Component } },
    handler: ({ params, body, services }) => services.storage.tags.setForComponent(params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/components/{id}/tags/{tagId}',
    group: 'tags',
    operationId: 'removeComponentTag',
    permission: 'library:write',
    summary: 'Take a tag off a component',
    params: z.object({ id: idSchema('component'), tagId: idSchema('tag') }),
    responses: { 200: { description: 'The component', schema: Component } },
    handler: ({ params, services }) => services.storage.tags.removeFromComponent(params.id, params.tagId),
  }),
]
