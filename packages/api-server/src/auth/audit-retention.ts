import type { Storage } from '@complib/core'

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

/** Runs pruneAuditTrail now and daily until the returned function is called. */
export function startAuditRetention(storage: Storage, log: (message: string, cause?: unknown) => void): () => void {
  const run = () => void pruneAuditTrail(storage).catch((error: unknown) => log('[audit] pruning to the retention setting failed', error))
  run()
  const timer = setInterval(run, DAY)
  timer.unref()
  return () => clearInterval(timer)
}
