import * as z from 'zod'
import { ComplibError } from './errors'

/** Lifecycle states of a component: draft, active, not recommended for new designs, obsolete (decision 0402). */
export const COMPONENT_STATUSES = ['draft', 'active', 'nrnd', 'obsolete'] as const
export const ComponentStatus = z.enum(COMPONENT_STATUSES).meta({
  id: 'ComponentStatus',
  description: 'draft → active → nrnd | obsolete; nrnd → active | obsolete; obsolete → active',
})
export type ComponentStatus = z.infer<typeof ComponentStatus>

/** The allowed transitions; anything else is a 409. Staying in the same state is always allowed. */
export const STATUS_TRANSITIONS: Readonly<Record<ComponentStatus, readonly ComponentStatus[]>> = {
  draft: ['active'],
  active: ['nrnd', 'obsolete'],
  nrnd: ['active', 'obsolete'],
  obsolete: ['active'],
}

/** Whether a component may move from `from` to `to`. */
export function canTransition(from: ComponentStatus, to: ComponentStatus): boolean {
  return from === to || STATUS_TRANSITIONS[from].includes(to)
}

/** Throws a 409 INVALID_TRANSITION naming the allowed targets when the move is not allowed. */
export function assertTransition(from: ComponentStatus, to: ComponentStatus): void {
  if (canTransition(from, to)) return
  const allowed = STATUS_TRANSITIONS[from].join(', ')
  throw new ComplibError('INVALID_TRANSITION', `status cannot change from ${from} to ${to} (allowed from ${from}: ${allowed})`, {
    errors: [{ path: 'body.status', message: `cannot change from ${from} to ${to}` }],
  })
}
