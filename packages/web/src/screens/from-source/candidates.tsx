import type { SourceCandidate } from '../../queries/sources'
import { count } from '../../ui/format'
import { Lifecycle } from '../../ui/lifecycle'

/**
 * A search's candidates side by side, as cards: MPN, manufacturer,
 * lifecycle, stock, description; Choose reads the whole part. Pictures stay
 * links: the page's Content-Security-Policy loads images from this server
 * only, and a supplier's would show as a broken icon.
 */
export function Candidates({ candidates, chosen, onChoose }: { candidates: readonly SourceCandidate[]; chosen: string | undefined; onChoose: (ref: string) => void }) {
  return (
    <ul className="candidates" aria-label="Candidates">
      {candidates.map((c) => {
        const picked = c.ref === chosen
        return (
          <li key={c.ref} className={picked ? 'candidate chosen' : 'candidate'}>
            <div className="candidate-head">
              <strong className="mpn">{c.mpn}</strong>
              <Lifecycle lifecycle={c.lifecycle} />
            </div>
            <div className="muted">{c.manufacturer ?? 'Manufacturer not given'}</div>
            {c.description && <p className="description">{c.description}</p>}
            <dl className="facts">
              <dt>Stock</dt>
              <dd>{c.stock === null ? '—' : count(c.stock)}</dd>
              <dt>Ref</dt>
              <dd>
                <code>{c.ref}</code>
              </dd>
            </dl>
            <div className="actions">
              {/* The visible word begins the accessible name (speech input users say what they see); the part follows, hidden. */}
              <button type="button" className={picked ? 'primary' : undefined} aria-pressed={picked} onClick={() => onChoose(c.ref)}>
                {picked ? 'Chosen' : 'Choose'}
                <span className="visually-hidden">
                  {' '}
                  {c.mpn} ({c.ref})
                </span>
              </button>
              {c.productUrl && (
                <a href={c.productUrl} target="_blank" rel="noreferrer noopener">
                  Product page<span className="visually-hidden"> of {c.mpn}</span>
                </a>
              )}
              {c.imageUrl && (
                <a href={c.imageUrl} target="_blank" rel="noreferrer noopener">
                  Picture<span className="visually-hidden"> of {c.mpn}</span>
                </a>
              )}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
