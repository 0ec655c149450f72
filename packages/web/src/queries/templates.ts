import type { ComplibClient, ParameterType } from '@complib/client-sdk'
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from '../api'

/** A category of the tree (`GET /api/categories`). */
export type CategoryRecord = Awaited<ReturnType<ComplibClient['categories']['list']>>[number]
/** One entry of a category's templates (`GET /api/categories/{id}/templates`); `categoryId` names the category that defines it. */
export type CategoryTemplate = Awaited<ReturnType<ComplibClient['categories']['templates']>>[number]
/** `GET /api/parameter-types/report`: values their types refuse, parts missing a required parameter (decision 0442). */
export type ParameterReport = Awaited<ReturnType<ComplibClient['parameterTypes']['report']>>

/** Rows of each list of the report the screen asks for. */
export const REPORT_LIMIT = 200

/**
 * Keys of what is read about parameter types, categories and their templates
 * (decision 1410). A category's templates include its ancestors', so a change
 * of any category's templates, or of a type they carry, refreshes them all.
 */
export const templateKeys = {
  all: () => ['templates'] as const,
  parameterTypes: () => [...templateKeys.all(), 'parameter-types'] as const,
  categories: () => [...templateKeys.all(), 'categories'] as const,
  forCategories: () => [...templateKeys.all(), 'category'] as const,
  forCategory: (id: string) => [...templateKeys.forCategories(), id] as const,
  report: () => [...templateKeys.all(), 'report'] as const,
}

export const templateQueries = {
  /** Every parameter type, by name (a library holds tens, not thousands). */
  parameterTypes: () =>
    queryOptions({ queryKey: templateKeys.parameterTypes(), queryFn: async () => (await api().parameterTypes.list({ limit: 1000 })).items.sort((a, b) => a.name.localeCompare(b.name)) }),
  categories: () =>
    queryOptions({
      queryKey: templateKeys.categories(),
      queryFn: async () => (await api().categories.list()).sort((a, b) => a.path.localeCompare(b.path)),
      staleTime: 30_000,
    }),
  /** The category's templates: its ancestors' first, then its own (a nearer entry for the same type wins). */
  forCategory: (id: string | undefined) =>
    queryOptions({
      queryKey: templateKeys.forCategory(id ?? ''),
      queryFn: () => api().categories.templates(id!),
      enabled: !!id,
      staleTime: 30_000,
    }),
  report: () => queryOptions({ queryKey: templateKeys.report(), queryFn: () => api().parameterTypes.report({ limit: REPORT_LIMIT }), staleTime: 0 }),
}

/** The templates of the category a component names by path (`Passives/Resistors`, any case); none for no or an unknown category. */
export function useTemplatesForPath(path: string): { templates: CategoryTemplate[]; category: CategoryRecord | undefined } {
  const wanted = path.trim().toLowerCase()
  const categories = useQuery({ ...templateQueries.categories(), enabled: wanted.length > 0 })
  const category = wanted ? categories.data?.find((c) => c.path.toLowerCase() === wanted) : undefined
  const templates = useQuery(templateQueries.forCategory(category?.id))
  return { templates: category ? (templates.data ?? []) : [], category }
}

/** After a parameter type is created or changed: the types, every category's templates (they carry its unit, kind and choices) and the report. */
export function parameterTypesChanged(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: templateKeys.parameterTypes() }),
    queryClient.invalidateQueries({ queryKey: templateKeys.forCategories() }),
    queryClient.invalidateQueries({ queryKey: templateKeys.report() }),
  ]).then(() => undefined)
}

/** After a category's templates are replaced: every category's (its descendants inherit them) and the report. */
export function templatesChanged(queryClient: QueryClient): Promise<void> {
  return Promise.all([queryClient.invalidateQueries({ queryKey: templateKeys.forCategories() }), queryClient.invalidateQueries({ queryKey: templateKeys.report() })]).then(() => undefined)
}

export type { ParameterType }
