import type { KeyboardEvent } from 'react'

/** Escape inside a `<details>` menu closes it and gives focus back to its summary (the browser does neither by itself). */
export function escapeCloses(e: KeyboardEvent<HTMLDetailsElement>): void {
  const menu = e.currentTarget
  if (e.key !== 'Escape' || !menu.open) return
  e.preventDefault()
  menu.open = false
  menu.querySelector('summary')?.focus()
}
