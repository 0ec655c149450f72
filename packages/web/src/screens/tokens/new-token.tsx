import type { Role, TokenCreated, TokenScope } from '@complib/client-sdk'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { api } from '../../api'
import { tokensChanged } from '../../queries/accounts'
import { ErrorBox, fieldError } from '../../ui/error-box'

/** The scopes a role may give a token: never more than the role itself. */
export const SCOPES_FOR: Record<Role, TokenScope[]> = { viewer: ['read'], editor: ['read', 'write'], admin: ['read', 'write', 'admin'] }
const SCOPE_WORDS: Record<TokenScope, string> = { read: 'read (as a viewer)', write: 'write (as an editor)', admin: 'admin (as an admin)' }

/** Make a token: name, scope, optional expiry; the answer is the only time the token is shown. */
export function NewToken({ role }: { role: Role }) {
  const scopes = SCOPES_FOR[role]
  const [name, setName] = useState('')
  const [scope, setScope] = useState<TokenScope>('read')
  const [expires, setExpires] = useState('')
  const [made, setMade] = useState<TokenCreated>()
  const [copied, setCopied] = useState(false)
  const queryClient = useQueryClient()
  const id = useId()
  const create = useMutation({
    // The day chosen is the last one it works: it expires at that day's end, local time.
    mutationFn: () => api().tokens.create({ name: name.trim(), scope, expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null }),
    onSuccess: (t) => {
      setMade(t)
      setCopied(false)
      setName('')
      setExpires('')
      void tokensChanged(queryClient)
    },
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    create.mutate()
  }
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

  return (
    <div className="panel">
      <h2 id={`${id}-h`}>New token</h2>
      <form className="inline-form" onSubmit={submit} aria-labelledby={`${id}-h`}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder="KiCad on my laptop" aria-invalid={fieldError(create.error, 'body.name') ? true : undefined} />
        </label>
        <label>
          Scope
          <select value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
            {scopes.map((s) => (
              <option key={s} value={s}>
                {SCOPE_WORDS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires (optional)
          <input type="date" min={tomorrow} value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={!name.trim() || create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      <ErrorBox error={create.error} title="Not created" />
      {made && (
        <div role="status" className="ok token-once">
          <p>
            <strong>Token “{made.name}” created.</strong> Copy it now: it is shown this once, and only its first characters are kept.
          </p>
          <div className="actions">
            <input readOnly value={made.token} aria-label="The new token" className="token-value" onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard.writeText(made.token).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" className="link" onClick={() => setMade(undefined)}>
              Done, hide it
            </button>
          </div>
        </div>
      )}
    </div>
  )
}
