import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api } from '../api'
import { ErrorBox, fieldError } from '../ui/error-box'

/** A signed-in user changes their own password; their other sessions end, this one goes on. */
export default function PasswordScreen() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const change = useMutation({
    mutationFn: () => api().auth.changePassword({ currentPassword: current, newPassword: next }),
    // A wrong current password is a 401 too: said here, the session goes on.
    meta: { unauthorizedIsAnswer: true },
    onSuccess: () => {
      setCurrent('')
      setNext('')
      setAgain('')
    },
  })
  const mismatch = again !== '' && again !== next
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!mismatch) change.mutate()
  }
  return (
    <section>
      <div className="screen-head">
        <h1>Change password</h1>
      </div>
      <form className="form narrow" onSubmit={submit}>
        <label>
          Current password
          <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
        </label>
        <label>
          New password
          <input type="password" autoComplete="new-password" minLength={8} value={next} onChange={(e) => setNext(e.target.value)} required />
          <span className="hint">At least 8 characters.</span>
          {fieldError(change.error, 'body.newPassword') && <span className="field-error">{fieldError(change.error, 'body.newPassword')}</span>}
        </label>
        <label>
          New password again
          <input type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required aria-invalid={mismatch ? true : undefined} />
          {mismatch && <span className="field-error">The two new passwords differ.</span>}
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={change.isPending || mismatch || !current || !next}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
      <ErrorBox error={change.error} title="Not changed" />
      {change.isSuccess && (
        <p role="status" className="ok">
          Password changed. Your other sessions have ended; this one goes on.
        </p>
      )}
    </section>
  )
}
