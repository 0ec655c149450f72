import { createRequire } from 'node:module'

/**
 * The application version (seed §9): the `@complib/api-server` package's own,
 * read from its package.json (from `src/` in the workspace, from `dist/` when
 * installed), so what `/api/health` reports and what npm installed agree. The
 * packages move together (`fixed` in .changeset/config.json).
 */
export const APP_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version
