import type { Component, ComponentPatch, ComponentStatus } from '@complib/client-sdk'

export type Field = 'category' | 'description'

/** What a bulk edit does to each selected component. */
export interface Plan {
  set: Partial<Record<Field, string>>
  clear: Field[]
  addTags: string[]
  removeTags: string[]
  status: ComponentStatus | ''
}

export const EMPTY_PLAN: Plan = { set: {}, clear: [], addTags: [], removeTags: [], status: '' }

/** The merge patch the plan makes of one component: only what would change. */
export function patchFor(c: Component, plan: Plan): ComponentPatch {
  const patch: ComponentPatch = {}
  for (const [field, value] of Object.entries(plan.set) as Array<[Field, string]>) if (value.trim() && (c[field] ?? '') !== value.trim()) patch[field] = value.trim()
  for (const field of plan.clear) if (c[field] !== null) patch[field] = null
  if (plan.addTags.length || plan.removeTags.length) {
    const remove = new Set(plan.removeTags.map((t) => t.toLowerCase()))
    const tags = [...c.tags.filter((t) => !remove.has(t.toLowerCase())), ...plan.addTags.filter((t) => !c.tags.some((x) => x.toLowerCase() === t.toLowerCase()))]
    if (JSON.stringify(tags) !== JSON.stringify(c.tags)) patch.tags = tags
  }
  if (plan.status && plan.status !== c.status) patch.status = plan.status
  return patch
}
