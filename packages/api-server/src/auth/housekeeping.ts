import type { Storage } from '@complib/core'
import { DEFAULT_SESSION_IDLE_MS } from './authenticator'

const DAY = 24 * 60 * 60 * 1000

/**
 * Prunes the audit trail to the retention an admin set (`auditRetentionDays`),
 * once now and then daily. Nothing older: no entry is appended either (a
 * pruning is itself an entry only when it removed something). Servers sharing
 * a database may each run it; the second finds nothing to prune.
 */
export async function pruneAuditTrail(storage: Storage, now = Date.now()): Promise<number> {
  const { auditRetentionDays } = await storage.settings.get()
  if (auditRetentionDays === null) return 0
  const before = new Date(now - auditRetentionDays * DAY).toISOString()
  if ((await storage.audit.list({ limit: 1, until: before })).total === 0) return 0
  const { removed } = await storage.audit.prune(before, {
    actor: { kind: 'system', id: null, name: 'retention' },
    channel: 'system',
    requestId: null,
    comment: `entries older than ${auditRetentionDays} days`,
    action: 'audit.prune',
    target: null,
    details: { retentionDays: auditRetentionDays },
  })
  return removed
}

/**
 * The daily upkeep: the audit trail pruned to its retention, and sign-in
 * sessions past their end or idle for `sessionIdleMs` removed (they no longer
 * work; without this their rows would stay). A failure is logged, never thrown.
 */
export async function housekeeping(storage: Storage, sessionIdleMs: number, log: (message: string, cause?: unknown) => void): Promise<void> {
  await pruneAuditTrail(storage).catch((error: unknown) => log('[audit] pruning to the retention setting failed', error))
  const now = Date.now()
  await storage.authSessions.prune(new Date(now).toISOString(), new Date(now - sessionIdleMs).toISOString()).catch((error: unknown) => log('[auth] removing ended sessions failed', error))
}

/** Runs housekeeping now and daily until the returned function is called. */
export function startHousekeeping(storage: Storage, log: (message: string, cause?: unknown) => void, sessionIdleMs = DEFAULT_SESSION_IDLE_MS): () => void {
  const run = () => void housekeeping(storage, sessionIdleMs, log)
  run()
  const timer = setInterval(run, DAY)
  timer.unref()
  return () => clearInterval(timer)
}
