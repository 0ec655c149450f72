import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query'
import type { Settings } from '@complib/client-sdk'
import { api } from '../api'
import { componentKeys } from './components'
import { settingsKeys } from './settings'

/** What KiCad is served, as the settings hold it. */
export type KicadSettings = Settings['kicad']

/** How many components the KiCad screen reads to find the ones without a symbol: one request, bounded (decision 1417). */
export const SYMBOL_CHECK_LIMIT = 5000

export interface WithoutSymbol {
  /** Components KiCad lists (live, with a category) that have no symbol, among those read. */
  parts: Array<{ id: string; ipn: string; name: string; category: string }>
  /** Components read; `total` when every one was. */
  checked: number
  total: number
}

export const kicadQueries = {
  /**
   * The parts KiCad lists but cannot place: a category and no symbol. Under
   * the component lists' prefix, so a save that links a symbol refreshes it.
   */
  withoutSymbol: () =>
    queryOptions({
      queryKey: [...componentKeys.lists(), 'kicad-without-symbol'] as const,
      queryFn: async (): Promise<WithoutSymbol> => {
        const page = await api().components.list({ limit: SYMBOL_CHECK_LIMIT, sort: 'ipn' })
        const parts = page.items.filter((c) => c.category && c.symbols.length === 0).map((c) => ({ id: c.id, ipn: c.ipn, name: c.name, category: c.category! }))
        return { parts, checked: page.items.length, total: page.total }
      },
    }),
}

/** KiCad's part as the server serves it (`GET /api/kicad/v1/parts/{id}.json`). */
export type { KicadPartView } from '@complib/client-sdk'

export const kicadKeys = {
  all: () => ['kicad'] as const,
  settings: () => [...kicadKeys.all(), 'settings'] as const,
  preview: (id: string, kicad: KicadSettings) => [...kicadKeys.all(), 'preview', id, kicad] as const,
  previewChoices: () => [...componentKeys.lists(), 'kicad-preview-choices'] as const,
}

export const kicadSettingsQueries = {
  /** What KiCad is served (decision 0634): readable by anyone who reads the library; admins change it. */
  settings: () => queryOptions({ queryKey: kicadKeys.settings(), queryFn: () => api().settings.kicad() }),
  /**
   * One part as KiCad would get it with the settings on the screen, saved or
   * not: the server applies them (`POST /api/settings/kicad/preview`), so the
   * preview is the server's own field rules, never a copy of them.
   */
  preview: (id: string, kicad: KicadSettings) =>
    queryOptions({
      queryKey: kicadKeys.preview(id, kicad),
      queryFn: () => api().settings.previewKicad(id, kicad),
      placeholderData: keepPreviousData,
      retry: false,
    }),
  /** Parts to preview: the first ones KiCad lists (they have a category). */
  previewChoices: () =>
    queryOptions({
      queryKey: kicadKeys.previewChoices(),
      queryFn: async () => (await api().components.list({ limit: 200, sort: 'ipn' })).items.filter((c) => c.category).map((c) => ({ id: c.id, ipn: c.ipn, name: c.name })),
    }),
}

/**
 * Saves the KiCad settings whole: `PATCH /api/settings` replaces the `kicad`
 * object, and the screen holds all of it, so nothing is lost between fields.
 */
export async function saveKicadSettings(queryClient: QueryClient, kicad: KicadSettings): Promise<KicadSettings> {
  const saved = await api().settings.patch({ kicad })
  queryClient.setQueryData(kicadKeys.settings(), saved.kicad)
  // The preview, the categories (hide obsolete, depth) and the settings screen read what changed.
  await queryClient.invalidateQueries({ queryKey: kicadKeys.all() })
  queryClient.setQueryData(settingsKeys.settings(), saved)
  return saved.kicad
}
