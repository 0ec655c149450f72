import { AsyncLocalStorage } from 'node:async_hooks'
import type { Actor, Channel } from './schemas/account'

/**
 * Who is making the writes of the current call, and why: the API server sets
 * it per request (withChange), and the stores record it with every component
 * history event, so history says who changed what without every store method
 * taking an extra argument. Each engine captures it when a store call is made
 * and restores it where the call runs (session.ts), whatever queue the call
 * waits in.
 */
export interface ChangeContext {
  actor: Actor
  channel: Channel
  /** The request's id (`X-Request-Id`), to find its log lines and audit entry. */
  requestId: string | null
  /** The comment sent with the write (`Complib-Comment`). */
  comment: string | null
  /** Set by a revert: the version the component was made again. */
  revertedTo?: number | undefined
}

const _store = new AsyncLocalStorage<ChangeContext>()

/** Runs `fn` with `context` as the change context of every write it makes. */
export function withChange<T>(context: ChangeContext, fn: () => T): T {
  return _store.run(context, fn)
}

/** The change context of the current call, if one is set. */
export function currentChange(): ChangeContext | undefined {
  return _store.getStore()
}
