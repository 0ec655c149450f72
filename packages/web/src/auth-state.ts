import { useSyncExternalStore } from 'react'

/** Whether the page must ask the caller to sign in (the API answered 401). */
let needed = false
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export const authEvents = {
  /** The API answered 401: no session (or it ended), or the tab's key or token was refused. */
  needSignIn(): void {
    if (needed) return
    needed = true
    emit()
  },
  /** Signed in, or a key or token was accepted. */
  signedIn(): void {
    needed = false
    emit()
  },
}

export function useSignInNeeded(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => needed,
  )
}
