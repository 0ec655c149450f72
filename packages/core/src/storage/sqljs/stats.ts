// Placeholder: implemented in its own change.
import type { SqlExecutor } from '../_internal/sql-executor'
import type { LibraryStats } from '../types'

export function stats(_ex: SqlExecutor): LibraryStats {
  throw new Error('not implemented')
}
