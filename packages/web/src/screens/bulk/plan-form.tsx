import type { ComponentStatus } from '@complib/client-sdk'
import type { Field, Plan } from './plan'

/** The edit to make: set or clear category and description, add or remove tags, change status. */
export function PlanFields({ plan, onChange: change }: { plan: Plan; onChange: (patch: Partial<Plan>) => void }) {
  return (
    <div className="grid2">
      {(['category', 'description'] as const).map((f) => (
        <fieldset key={f}>
          <legend>{f === 'category' ? 'Category' : 'Description'}</legend>
          <label>
            <input type="radio" name={f} checked={!(f in plan.set) && !plan.clear.includes(f)} onChange={() => change({ set: _without(plan.set, f), clear: plan.clear.filter((x) => x !== f) })} /> Leave as is
          </label>
          <label>
            <input type="radio" name={f} checked={f in plan.set} onChange={() => change({ set: { ...plan.set, [f]: '' }, clear: plan.clear.filter((x) => x !== f) })} /> Set to
          </label>
          {f in plan.set && (
            <label>
              New {f}
              <input value={plan.set[f]} onChange={(e) => change({ set: { ...plan.set, [f]: e.target.value } })} />
            </label>
          )}
          <label>
            <input type="radio" name={f} checked={plan.clear.includes(f)} onChange={() => change({ set: _without(plan.set, f), clear: [...plan.clear, f] })} /> Clear
          </label>
        </fieldset>
      ))}
      <label>
        Add tags (comma separated)
        <input onChange={(e) => change({ addTags: _tagList(e.target.value) })} />
      </label>
      <label>
        Remove tags (comma separated)
        <input onChange={(e) => change({ removeTags: _tagList(e.target.value) })} />
      </label>
      <label>
        Change status
        <select value={plan.status} onChange={(e) => change({ status: e.target.value as ComponentStatus | '' })}>
          <option value="">Leave as is</option>
          <option value="draft">draft</option>
          <option value="active">active</option>
          <option value="nrnd">nrnd</option>
          <option value="obsolete">obsolete</option>
        </select>
        <span className="hint">Only allowed moves succeed (draft → active → nrnd or obsolete); one refused move stops the whole edit.</span>
      </label>
    </div>
  )
}

function _tagList(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
}

function _without(o: Plan['set'], key: Field): Plan['set'] {
  const { [key]: _gone, ...rest } = o
  return rest
}
