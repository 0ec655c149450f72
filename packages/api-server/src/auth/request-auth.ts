import type { Channel } from '@complib/core'
import type { Principal } from './principal'

/** What a route handler knows of its caller (RouteContext.auth). */
export interface RequestAuth {
  principal: Principal
  channel: Channel
  requestId: string
  /** The `Complib-Comment` sent with the request, decoded. */
  comment: string | null
  /** The client's address (behind a trusted proxy, the one it saw). */
  clientIp: string
  /** What the handler adds to its audit entry (never a secret). */
  auditDetails: Record<string, unknown>
  /** The record the audit entry names, when the handler knows it better than the path does (a created user). */
  auditTarget?: { type: string; id: string } | undefined
}
