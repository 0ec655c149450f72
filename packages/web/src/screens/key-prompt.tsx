import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { api, describeError, isUnauthorized, setApiKey } from '../api'
import { authEvents } from '../auth-state'

/**
 * Asked when the API answers 401 (a server started with --api-key, as it must
 * be off loopback). The key is kept in sessionStorage: for this tab only.
 */
export function KeyPrompt({ refused }: { refused: boolean }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | undefined>(refused ? 'The server refused the API key. Check it and try again.' : undefined)
  const [busy, setBusy] = useState(false)
  const queryClient = useQueryClient()
  const inputId = useId()

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setApiKey(key.trim())
    try {
      await api().stats()
      authEvents.accepted()
      await queryClient.invalidateQueries()
    } catch (err) {
      setApiKey(undefined)
      setError(isUnauthorized(err) ? 'Wrong API key: the server refused it (401). Check the key given to `complib serve --api-key` and try again.' : describeError(err).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <main id="main" className="key-prompt">
      <h1>complib needs the API key</h1>
      <p>This server asks for a key. It is kept for this browser tab only and forgotten when the tab closes.</p>
      <form onSubmit={submit}>
        <label htmlFor={inputId}>API key</label>
        <input id={inputId} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} required autoFocus aria-describedby={error ? `${inputId}-error` : undefined} />
        <button type="submit" disabled={busy || !key.trim()}>
          {busy ? 'Checking…' : 'Use this key'}
        </button>
      </form>
      {error && (
        <p role="alert" id={`${inputId}-error`} className="error-box">
          {error}
        </p>
      )}
    </main>
  )
}
