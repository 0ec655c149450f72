import { useEffect, useState } from 'react'

/** Screens by hash (`#/components/cmp_…`): deep links work without any server-side routing. */
export type Route =
  | { name: 'library' }
  | { name: 'component'; id: string }
  | { name: 'new-component' }
  | { name: 'from-source' }
  | { name: 'bulk' }
  | { name: 'import' }
  | { name: 'connectors' }
  | { name: 'connector'; id: string }
  | { name: 'new-connector' }
  | { name: 'sources' }
  | { name: 'locations' }
  | { name: 'kicad' }
  | { name: 'templates' }
  | { name: 'tokens' }
  | { name: 'password' }
  | { name: 'users' }
  | { name: 'audit' }
  | { name: 'settings' }
  | { name: 'not-found'; path: string }

type SingleName = 'bulk' | 'import' | 'connectors' | 'sources' | 'locations' | 'kicad' | 'templates' | 'tokens' | 'password' | 'users' | 'audit' | 'settings'
/** Screens named by one path segment (`#/tokens`). */
const SINGLE: ReadonlySet<string> = new Set<SingleName>(['bulk', 'import', 'connectors', 'sources', 'locations', 'kicad', 'templates', 'tokens', 'password', 'users', 'audit', 'settings'])

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/'
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
  const [head, id] = parts
  if (parts.length === 0) return { name: 'library' }
  if (head === 'components' && id === 'new') return { name: 'new-component' }
  if (head === 'components' && id === 'from-source') return { name: 'from-source' }
  if (head === 'components' && id) return { name: 'component', id }
  if (head === 'connectors' && id === 'new') return { name: 'new-connector' }
  if (head === 'connectors' && id) return { name: 'connector', id }
  if (parts.length === 1 && head && SINGLE.has(head)) return { name: head as SingleName }
  return { name: 'not-found', path }
}

export function href(path: string): string {
  return `#${path}`
}

export function navigate(path: string): void {
  location.hash = path
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash))
    window.addEventListener('hashchange', onChange)
    return () => window.removeEventListener('hashchange', onChange)
  }, [])
  return route
}
