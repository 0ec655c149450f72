import { useCan } from '../queries/auth'
import { CategoryTemplates } from './templates/category-templates'
import { ParameterTypes } from './templates/parameter-types'
import { ConformanceReport } from './templates/report'
import './templates/templates.css'

/**
 * Parameter types (unit, kind, choices, limits), each category's templates
 * (inherited entries shown as such), and the report of values today's types
 * and templates would refuse (decision 1415).
 */
export default function TemplatesScreen() {
  const writer = useCan('library:write')
  return (
    <section className="templates">
      <div className="screen-head">
        <h1>Parameters</h1>
        <p className="muted">What a parameter holds, and which ones each category's parts carry.</p>
      </div>
      <div className="templates-grid">
        <ParameterTypes writer={writer} />
        <CategoryTemplates writer={writer} />
      </div>
      <ConformanceReport />
    </section>
  )
}
