import { describeError } from '../api'

/** A failed request, said plainly: the server's `detail`, then each field it named. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null
  const { message, fields } = describeError(error)
  return (
    <div role="alert" className="error-box">
      {title && <strong>{title}: </strong>}
      {message}
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>
              <code>{f.path.replace(/^body\./, '')}</code>: {f.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The message a field error names for `path` (`body.name`), if any. */
export function fieldError(error: unknown, path: string): string | undefined {
  if (!error) return undefined
  return describeError(error).fields.find((f) => f.path === path || f.path.startsWith(`${path}.`) || f.path.startsWith(`${path}[`))?.message
}
