import type { SavedView, SavedViewCreate, SavedViewPatch } from '@complib/core'
import type * as z from 'zod'
import { path, type Transport } from '../_internal/transport'
import type { IfMatchOptions } from '../_internal/types'

/**
 * `client.views`: your saved views of the library table (`/api/views`), the
 * state an object of at most 16 KiB that the web defines.
 *
 * @example
 * const view = await client.views.create({ name: 'Resistors in stock', state: { filters: { category: 'Passives/Resistors' }, sort: '-stock' } })
 */
export function createViewsResource(t: Transport) {
  return {
    /** Your views, by name. */
    list: (): Promise<SavedView[]> => t.call('GET', '/views'),
    /** A name taken among your views (case-insensitively) is a `ConflictError`. */
    create: (body: z.input<typeof SavedViewCreate>): Promise<SavedView> => t.call('POST', '/views', { body }),
    /** Renames it or replaces its state; another account's view is a `NotFoundError`. */
    patch: (id: string, body: z.input<typeof SavedViewPatch>, options: IfMatchOptions = {}): Promise<SavedView> =>
      t.call('PATCH', path`/views/${id}`, { body, ifMatch: options.ifMatch }),
    delete: (id: string): Promise<void> => t.call('DELETE', path`/views/${id}`),
  }
}

export type ViewsResource = ReturnType<typeof createViewsResource>
