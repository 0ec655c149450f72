import { useEffect, type KeyboardEvent, type RefObject } from 'react'

/** Escape inside a `<details>` menu closes it and gives focus back to its summary (the browser does neither by itself). */
export function escapeCloses(e: KeyboardEvent<HTMLDetailsElement>): void {
  const menu = e.currentTarget
  if (e.key !== 'Escape' || !menu.open) return
  e.preventDefault()
  menu.open = false
  menu.querySelector('summary')?.focus()
}

/** A press anywhere outside an open `<details>` menu closes it, as menus do. */
export function useOutsideCloses(menu: RefObject<HTMLDetailsElement | null>): void {
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      const m = menu.current
      if (m?.open && e.target instanceof Node && !m.contains(e.target)) m.open = false
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [menu])
}
