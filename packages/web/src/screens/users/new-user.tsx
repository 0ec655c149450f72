import type { Role, User } from '@complib/client-sdk'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { api } from '../../api'
import { usersChanged } from '../../queries/accounts'
import { ErrorBox, fieldError } from '../../ui/error-box'

const ROLES: Role[] = ['viewer', 'editor', 'admin']

/** A new account: user name, display name, role and a first password (the user changes it). */
export function NewUser({ onCreated }: { onCreated: (user: User) => void }) {
  const [username, setUsername] = useState('')
  const [displayName, setDisplayName] = useState('')
  const [role, setRole] = useState<Role>('editor')
  const [password, setPassword] = useState('')
  const queryClient = useQueryClient()
  const id = useId()
  const create = useMutation({
    mutationFn: () => api().users.create({ username: username.trim(), password, role, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) }),
    onSuccess: (u) => {
      setUsername('')
      setDisplayName('')
      setPassword('')
      onCreated(u)
      return usersChanged(queryClient)
    },
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    create.mutate()
  }
  const invalid = (path: string) => (fieldError(create.error, path) ? true : undefined)
  return (
    <div className="panel">
      <h2 id={`${id}-h`}>New user</h2>
      <form className="inline-form" onSubmit={submit} aria-labelledby={`${id}-h`}>
        <label>
          User name
          <input value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="off" aria-invalid={invalid('body.username')} />
        </label>
        <label>
          Display name
          <input value={displayName} onChange={(e) => setDisplayName(e.target.value)} placeholder="defaults to the user name" aria-invalid={invalid('body.displayName')} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Password
          <input type="password" autoComplete="new-password" minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} required aria-invalid={invalid('body.password')} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending || !username.trim() || password.length < 8}>
          {create.isPending ? 'Creating…' : 'Create user'}
        </button>
      </form>
      <ErrorBox error={create.error} title="Not created" />
    </div>
  )
}
