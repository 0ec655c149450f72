import type { User } from '@complib/client-sdk'
import { useId, useState, type FormEvent } from 'react'

/** An admin sets a new password for someone (who then signs in with it; their sessions end). */
export function ResetPassword(props: { user: User; busy: boolean; onReset: (password: string) => void; onCancel: () => void }) {
  const [password, setPassword] = useState('')
  const id = useId()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    props.onReset(password)
  }
  return (
    <div className="panel reset-password">
      <h2 id={`${id}-h`}>New password for {props.user.username}</h2>
      <form className="inline-form" onSubmit={submit} aria-labelledby={`${id}-h`}>
        <label>
          New password
          <input type="password" autoComplete="new-password" minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} required autoFocus />
        </label>
        <button type="submit" className="primary" disabled={props.busy || password.length < 8}>
          Set password
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </form>
    </div>
  )
}
