import type { Me } from '@complib/client-sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { api, describeError, isUnauthorized, setApiKey } from '../api'
import { authEvents } from '../auth-state'
import { authKeys } from '../queries/auth'

/**
 * Asked when the API answers 401: a user name and password start a session
 * (an HttpOnly cookie). A key or token can be given instead (the server's
 * bootstrap key, before any account exists); it is kept in sessionStorage,
 * for this tab only (decision 1408).
 */
export function SignIn() {
  const [withKey, setWithKey] = useState(false)
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to complib</h1>
      {withKey ? <KeyForm onBack={() => setWithKey(false)} /> : <PasswordForm onKey={() => setWithKey(true)} />}
    </main>
  )
}

/** What both forms do once the server knows the caller: nothing read as someone else stays on the page. */
function useSignedIn(): (me: Me) => void {
  const queryClient = useQueryClient()
  return (me) => {
    queryClient.clear()
    queryClient.setQueryData(authKeys.me(), me)
    authEvents.signedIn()
  }
}

function PasswordForm({ onKey }: { onKey: () => void }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const signedIn = useSignedIn()
  const id = useId()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      // A key left in this tab would be sent instead of the new session's cookie.
      setApiKey(undefined)
      signedIn(await api().auth.login({ username: username.trim(), password }))
    } catch (err) {
      setPassword('')
      setError(describeError(err).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <form onSubmit={submit}>
        <label htmlFor={`${id}-user`}>User name</label>
        <input id={`${id}-user`} autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit" className="primary" disabled={busy || !username.trim() || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error && (
        <p role="alert" id={`${id}-error`} className="error-box">
          {error}
        </p>
      )}
      <p className="muted">
        No account yet? An admin makes one (<code>complib users add</code>).{' '}
        <button type="button" className="link" onClick={onKey}>
          Use an API key or token instead
        </button>
      </p>
    </>
  )
}

function KeyForm({ onBack }: { onBack: () => void }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const signedIn = useSignedIn()
  const id = useId()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setApiKey(key.trim())
    try {
      signedIn(await api().auth.me())
    } catch (err) {
      setApiKey(undefined)
      setError(
        isUnauthorized(err)
          ? 'Wrong key or token: the server refused it (401). Check the key given to `complib serve --api-key`, or the token, and try again.'
          : describeError(err).message,
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <p>The key or token is kept for this browser tab only and forgotten when the tab closes.</p>
      <form onSubmit={submit}>
        <label htmlFor={id}>API key or token</label>
        <input
          id={id}
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
          autoFocus
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="submit" className="primary" disabled={busy || !key.trim()}>
          {busy ? 'Checking…' : 'Use this key'}
        </button>
      </form>
      {error && (
        <p role="alert" id={`${id}-error`} className="error-box">
          {error}
        </p>
      )}
      <p>
        <button type="button" className="link" onClick={onBack}>
          Sign in with a user name and password
        </button>
      </p>
    </>
  )
}
