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


/**
 * One parameter a category's parts carry (decision 0440). A category's templates
 * are its own and its ancestors' (a nearer category's entry for the same type wins);
 * `categoryId` names the category that defines the entry.
 */
export const CategoryTemplate = z
  .object({
    categoryId: idSchema('category'),
    parameterTypeId: idSchema('parameterType'),
    parameterType: z.string().meta({ description: 'The parameter type\'s name: what a component\'s parameter holds in `type`' }),
    unit: z.string().nullable(),
    kind: z.enum(['number', 'text', 'choice']),
    choices: z.array(z.string()).nullable(),
    required: z.boolean().meta({ description: 'A part of the category must carry this parameter' }),
    isValue: z.boolean().meta({ description: 'The parameter KiCad\'s Value field, the table and an import\'s `Value` column use' }),
  })
  .meta({ id: 'CategoryTemplate' })
export type CategoryTemplate = z.infer<typeof CategoryTemplate>

/** Most templates one category defines. */
export const CATEGORY_MAX_TEMPLATES = 50

/** One entry of `PUT /api/categories/:id/templates`: a parameter type by name or id. */
export const CategoryTemplateInput = z
  .strictObject({
    parameterType: z.string().trim().min(1).max(100).meta({ description: 'The parameter type\'s name or id' }),
    required: z.boolean().default(false),
    isValue: z.boolean().default(false),
  })
  .meta({ id: 'CategoryTemplateInput' })
export type CategoryTemplateInput = z.input<typeof CategoryTemplateInput>

/** Body of `PUT /api/categories/:id/templates`: the category's own templates, in order (at most one `isValue`). */
export const CategoryTemplatesReplace = z
  .strictObject({ templates: z.array(CategoryTemplateInput).max(CATEGORY_MAX_TEMPLATES) })
  .meta({ id: 'CategoryTemplatesReplace' })
export type CategoryTemplatesReplace = z.input<typeof CategoryTemplatesReplace>
