import * as z from 'zod'
import { idSchema } from '../ids'
import { identifierSchema, recordFields } from './common'

/** One name of a category path: an identifier without `/` (which joins the names of a path). */
export const CategoryName = identifierSchema(100).regex(/^[^/]+$/, { error: 'a category name has no /; create the parent first' })

/**
 * A category: a node of the category tree. A component names its category by
 * path (`Passives/Resistors/Thick film`); renaming a category keeps its id,
 * and every component in it or below it follows (decision 0408).
 */
export const Category = z
  .object({
    id: idSchema('category'),
    name: z.string(),
    parentId: idSchema('category').nullable(),
    path: z.string().meta({ description: 'Names from the root joined by `/`: what a component\'s `category` holds' }),
    count: z.int().meta({ description: 'Non-deleted components in the category and its descendants' }),
    ...recordFields,
  })
  .meta({ id: 'Category' })
export type Category = z.infer<typeof Category>

/** Body of `POST /api/categories`. */
export const CategoryCreate = z
  .strictObject({ name: CategoryName, parentId: idSchema('category').nullable().optional() })
  .meta({ id: 'CategoryCreate' })
export type CategoryCreate = z.input<typeof CategoryCreate>

/** Body of `PATCH /api/categories/:id`: a rename (the id stays; components follow). */
export const CategoryPatch = z.strictObject({ name: CategoryName }).partial().meta({ id: 'CategoryPatch' })
export type CategoryPatch = z.input<typeof CategoryPatch>

