import type { SourceLifecycle } from '../queries/sources'

/** The status colours the library already uses, for the supplier's word for the same thing. */
const CLASS: Record<SourceLifecycle, string> = { active: 'status-active', nrnd: 'status-nrnd', obsolete: 'status-obsolete', preview: 'status-draft', unknown: 'status-draft' }
const WORDS: Record<SourceLifecycle, string> = { active: 'active', nrnd: 'not recommended (nrnd)', obsolete: 'obsolete', preview: 'preview', unknown: 'lifecycle unknown' }

/** A part's lifecycle as the supplier states it, as a badge; the supplier's own words as its title when given. */
export function Lifecycle({ lifecycle, words }: { lifecycle: SourceLifecycle; words?: string | null }) {
  return (
    <span className={`status ${CLASS[lifecycle]}`} title={words ?? undefined}>
      {WORDS[lifecycle]}
    </span>
  )
}
