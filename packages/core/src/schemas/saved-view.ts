import * as z from 'zod'
import { idSchema } from '../ids'
import { recordFields } from './common'

/** Most bytes a view's state takes, as JSON text in UTF-8 (decision 1508). */
export const SAVED_VIEW_STATE_MAX_BYTES = 16 * 1024

/** Most views one owner keeps (decision 1508). */
export const SAVED_VIEWS_PER_OWNER = 200

/** What the web keeps in a view (filters, columns, sort): an object the server stores as it is. */
export const SavedViewState = z
  .record(z.string(), z.unknown())
  .refine((state) => Buffer.byteLength(JSON.stringify(state), 'utf8') <= SAVED_VIEW_STATE_MAX_BYTES, {
    error: `a view's state is at most ${SAVED_VIEW_STATE_MAX_BYTES} bytes of JSON`,
  })
  .meta({ description: `A JSON object the web defines (filters, columns, sort), at most ${SAVED_VIEW_STATE_MAX_BYTES} bytes; stored as sent` })

const ViewName = z.string().trim().min(1).max(100)

/** A saved view of the library table, its owner's only (decision 1508). */
export const SavedView = z
  .object({ id: idSchema('savedView'), name: z.string(), state: z.record(z.string(), z.unknown()), ...recordFields })
  .meta({ id: 'SavedView' })
export type SavedView = z.infer<typeof SavedView>

/** Body of `POST /api/views`. */
export const SavedViewCreate = z.strictObject({ name: ViewName, state: SavedViewState }).meta({ id: 'SavedViewCreate' })
export type SavedViewCreate = z.output<typeof SavedViewCreate>

/** Body of `PATCH /api/views/{id}`: what is given replaces; the state as a whole. */
export const SavedViewPatch = z.strictObject({ name: ViewName, state: SavedViewState }).partial().meta({ id: 'SavedViewPatch' })
export type SavedViewPatch = z.output<typeof SavedViewPatch>
