import type { Actor, AuditInput, Channel, Storage } from '@complib/core'
import { LRUCache } from 'lru-cache'

/** Who an entry names and how the request came: from a RequestAuth, or made up for a refusal. */
export interface AuditSource {
  actor: Actor
  channel: Channel
  requestId: string | null
  comment: string | null
}

export interface AuditRecorder {
  /**
   * Appends an entry. Never throws: the change it records has happened, and a
   * full disk must not turn its answer into a 500; a failure is logged.
   */
  record(source: AuditSource, action: string, target: AuditInput['target'], details: Record<string, unknown> | null): Promise<void>
  /**
   * A refused request (401, 403, 429): recorded at most once a minute per
   * client and caller, so a scanner knocking all night leaves a line a
   * minute, not a million.
   */
  refused(source: AuditSource, clientIp: string, details: { status: number; method: string; path: string; reason: string }): Promise<void>
}

export function createAuditRecorder(storage: Storage, log?: (message: string, cause?: unknown) => void): AuditRecorder {
  const recent = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 })
  const record: AuditRecorder['record'] = async (source, action, target, details) => {
    try {
      await storage.audit.append({ actor: source.actor, channel: source.channel, requestId: source.requestId, comment: source.comment, action, target, details })
    } catch (error) {
      log?.(`[audit] could not record ${action}`, error)
    }
  }
  return {
    record,
    async refused(source, clientIp, details) {
      const key = `${clientIp}|${details.status}|${source.actor.kind}:${source.actor.id ?? source.actor.name}`
      if (recent.has(key)) return
      recent.set(key, true)
      await record(source, 'auth.refused', null, { ...details, clientIp })
    },
  }
}
