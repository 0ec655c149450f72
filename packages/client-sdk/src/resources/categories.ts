import type { Category, CategoryCreate, CategoryPatch, CategoryTemplate, CategoryTemplateInput } from '@complib/core'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions } from '../_internal/types'

/** `client.categories`: the category tree; a component names its category by path (`Passives/Resistors`). */
export function createCategoriesResource(t: Transport) {
  return {
    /** Every category, by path, with its parent and how many components it and its descendants hold. */
    list: (): Promise<Category[]> => t.call('GET', '/categories'),
    get: (id: string): Promise<Category> => t.call('GET', path`/categories/${id}`),
    create: (body: CategoryCreate): Promise<Category> => t.call('POST', '/categories', { body }),
    /** Renames it: the id stays, and every component in it or below it takes the new path. */
    patch: (id: string, body: CategoryPatch, options: IfMatchOptions = {}): Promise<Category> => t.call('PATCH', path`/categories/${id}`, { body, ifMatch: options.ifMatch }),
    /** Refused (ConflictError) while it has sub-categories or live components. */
    delete: (id: string): Promise<void> => t.call('DELETE', path`/categories/${id}`),
    /** The parameters its parts carry: its ancestors' templates then its own (a nearer entry for the same type wins). */
    templates: (id: string): Promise<CategoryTemplate[]> => t.call('GET', path`/categories/${id}/templates`),
    /** Replaces its own templates (parameter types by name or id, in order; at most one `isValue`); answers the effective ones. */
    setTemplates: (id: string, templates: CategoryTemplateInput[]): Promise<CategoryTemplate[]> => t.call('PUT', path`/categories/${id}/templates`, { body: { templates } }),
  }
}

export type CategoriesResource = ReturnType<typeof createCategoriesResource>
