import { useQuery } from '@tanstack/react-query'
import { templateQueries } from '../../queries/templates'
import { href } from '../../router'
import { ErrorBox } from '../../ui/error-box'
import { count, plural } from '../../ui/format'

/**
 * What the library holds that today's types and templates would refuse: values
 * kept as written before a type said otherwise, and parts missing a required
 * parameter. Nothing is changed; each part links to its form (decision 1415).
 */
export function ConformanceReport() {
  const report = useQuery(templateQueries.report())
  const r = report.data
  return (
    <section className="panel" aria-labelledby="report-h">
      <h2 id="report-h">Values that do not fit</h2>
      <ErrorBox error={report.error} title="The report could not be read" />
      {r && r.nonConforming.total === 0 && r.missingRequired.total === 0 && <p className="muted">Every value fits its type, and every part carries its category's required parameters.</p>}
      {r && r.nonConforming.total > 0 && (
        <>
          <h3>{plural(r.nonConforming.total, 'value')} their type would refuse</h3>
          <table className="simple" aria-label="Values their type would refuse">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Parameter</th>
                <th scope="col">Value</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {r.nonConforming.items.map((v, i) => (
                <tr key={`${v.componentId}:${v.type}:${i}`}>
                  <td>
                    <a href={href(`/components/${v.componentId}`)}>{v.ipn}</a> {v.name}
                  </td>
                  <td>{v.type}</td>
                  <td>
                    <code>{v.value}</code>
                  </td>
                  <td>{v.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {r.nonConforming.total > r.nonConforming.items.length && <p className="muted">The first {count(r.nonConforming.items.length)} are shown.</p>}
        </>
      )}
      {r && r.missingRequired.total > 0 && (
        <>
          <h3>{plural(r.missingRequired.total, 'part')} missing a required parameter</h3>
          <table className="simple" aria-label="Parts missing a required parameter">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Category</th>
                <th scope="col">Missing</th>
              </tr>
            </thead>
            <tbody>
              {r.missingRequired.items.map((m) => (
                <tr key={m.componentId}>
                  <td>
                    <a href={href(`/components/${m.componentId}`)}>{m.ipn}</a> {m.name}
                  </td>
                  <td>{m.category}</td>
                  <td>{m.missing.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {r.missingRequired.total > r.missingRequired.items.length && <p className="muted">The first {count(r.missingRequired.items.length)} are shown.</p>}
        </>
      )}
    </section>
  )
}
