import { Category, CategoryCreate, CategoryPatch, CategoryTemplate, CategoryTemplatesReplace, idSchema } from '@complib/core'
import * as z from 'zod'
import { defineRoute } from '../routing/define-route'
import { created, noContent } from '../routing/reply'
import { ifMatchVersion } from '../routing/request'

const Params = z.object({ id: idSchema('category') })

/**
 * The category tree (decision 0408).
 * A component names its category by path; these routes give each node an id
 * that a rename keeps, the components following.
 */
export const categoryRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/categories',
    group: 'categories',
    operationId: 'listCategories',
    permission: 'library:read',
    summary: 'Every category, by path, with its id, parent and count of components (its own and its descendants’)',
    responses: { 200: { description: 'Categories, by path', schema: z.array(Category) } },
    handler: ({ services }) => services.storage.categories.list(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/categories/{id}',
    group: 'categories',
    operationId: 'getCategory',
    permission: 'library:read',
    summary: 'One category',
    params: Params,
    responses: { 200: { description: 'The category', schema: Category } },
    handler: ({ params, services }) => services.storage.categories.get(params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/categories',
    group: 'categories',
    operationId: 'createCategory',
    permission: 'library:write',
    summary: 'Create a category (under `parentId`, or at the root)',
    body: CategoryCreate,
    errors: ['CONFLICT'],
    responses: { 201: { description: 'Created', schema: Category, headers: { location: { description: 'URL of the category' } } } },
    handler: async ({ body, services }) => {
      const category = await services.storage.categories.create(body)
      return created(category, `/api/categories/${category.id}`)
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/categories/{id}',
    group: 'categories',
    operationId: 'patchCategory',
    permission: 'library:write',
    ifMatch: true,
    summary: 'Rename a category: its id stays, and every component in it or below it takes the new path (a new version each)',
    params: Params,
    body: CategoryPatch,
    errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    responses: { 200: { description: 'The category', schema: Category } },
    handler: ({ params, body, services, event }) => services.storage.categories.update(params.id, body, { ifVersion: ifMatchVersion(event.req) }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/categories/{id}',
    group: 'categories',
    operationId: 'deleteCategory',
    permission: 'library:write',
    summary: 'Delete a category that holds no sub-categories and no components',
    params: Params,
    errors: ['CONFLICT'],
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ params, services }) => {
      await services.storage.categories.delete(params.id)
      return noContent()
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/categories/{id}/templates',
    group: 'categories',
    operationId: 'getCategoryTemplates',
    permission: 'library:read',
    summary: 'The parameters a category\'s parts carry: its ancestors\' templates then its own, a nearer entry for the same type winning (decision 0440)',
    params: Params,
    responses: { 200: { description: 'Effective templates, in order', schema: z.array(CategoryTemplate) } },
    handler: ({ params, services }) => services.storage.categories.templates(params.id),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/categories/{id}/templates',
    group: 'categories',
    operationId: 'setCategoryTemplates',
    permission: 'library:write',
    summary: 'Replace a category\'s own templates (parameter types by name or id, in order; at most one is the value); answers the effective ones',
    params: Params,
    body: CategoryTemplatesReplace,
    responses: { 200: { description: 'Effective templates, in order', schema: z.array(CategoryTemplate) } },
    handler: ({ params, body, services }) => services.storage.categories.setTemplates(params.id, body.templates),
  }),
]
