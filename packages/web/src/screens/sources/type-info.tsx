import type { SourceType } from '../../queries/sources'
import { count } from '../../ui/format'

/** What a type of source is, what it gives, the provider's limits the server keeps to, and its documentation. */
export function TypeInfo({ type }: { type: SourceType }) {
  const gives = [type.capabilities.search && 'search', type.capabilities.offers && 'stock and prices', type.capabilities.lifecycle && 'lifecycle'].filter(Boolean).join(', ')
  const { requestsPerMinute: perMinute, requestsPerDay: perDay } = type.limits
  const limits = [perMinute && `${count(perMinute)} a minute`, perDay && `${count(perDay)} a day`].filter(Boolean).join(', ')
  return (
    <div className="type-info">
      {type.description && <p>{type.description}</p>}
      <p className="muted">
        {gives && <>Gives {gives}. </>}
        {limits && <>Requests are kept within the provider’s limits: {limits}. </>}
        {type.documentation && (
          <a href={type.documentation} target="_blank" rel="noreferrer noopener">
            {type.title} API documentation
          </a>
        )}
      </p>
    </div>
  )
}
