import type { Me } from '@complib/client-sdk'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { authKeys, can, useCan, type Permission } from '../../src/queries/auth'

/** The permission lists `GET /api/auth/me` answers for each role (the API server's permission table). */
const VIEWER = ['account', 'connectors:read', 'library:read', 'sources:read']
const EDITOR = [...VIEWER, 'connectors:push', 'library:write', 'sources:search']
const ADMIN = [...EDITOR, 'audit:read', 'backup:read', 'connectors:admin', 'settings:admin', 'sources:admin', 'users:admin']

const ASKED: Permission[] = ['library:read', 'library:write', 'connectors:push', 'connectors:admin', 'sources:read', 'sources:search', 'sources:admin', 'users:admin', 'audit:read', 'settings:admin', 'backup:read']

/** What useCan answers for each permission, rendered in a component over a query cache holding `me` (or nothing yet). */
function rendered(me: Me | undefined): Record<string, boolean> {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } })
  if (me) queryClient.setQueryData(authKeys.me(), me)
  const Probe = () => createElement('pre', null, JSON.stringify(Object.fromEntries(ASKED.map((p) => [p, useCan(p)]))))
  const html = renderToString(createElement(QueryClientProvider, { client: queryClient }, createElement(Probe)))
  return JSON.parse(html.replace(/^<pre>|<\/pre>$/g, '').replaceAll('&quot;', '"')) as Record<string, boolean>
}

function me(role: Me['role'], permissions: string[], authRequired = true): Me {
  return { user: null, actor: { kind: 'user', id: 'usr_1', name: role }, role, permissions, authRequired }
}

describe('useCan: what the interface offers, from the permissions `me` lists', () => {
  it('grants nothing before `me` is known (no control flashes up and goes away)', () => {
    expect(Object.values(rendered(undefined))).toEqual(ASKED.map(() => false))
  })

  it('a viewer reads (the sources too): no writes, no pushes, no searches of a source, none of the admin screens', () => {
    const got = rendered(me('viewer', VIEWER))
    expect(Object.keys(got).filter((p) => got[p])).toEqual(['library:read', 'sources:read'])
  })

  it('an editor changes the library, pushes and searches sources, but configures no connector or source and runs no user, audit or settings screen', () => {
    const got = rendered(me('editor', EDITOR))
    expect(Object.keys(got).filter((p) => got[p])).toEqual(['library:read', 'library:write', 'connectors:push', 'sources:read', 'sources:search'])
  })

  it('an admin, and keyless loopback mode (a local admin), may do everything', () => {
    expect(Object.values(rendered(me('admin', ADMIN)))).toEqual(ASKED.map(() => true))
    expect(Object.values(rendered(me('admin', ADMIN, false)))).toEqual(ASKED.map(() => true))
  })

  it('follows the list the server sends, not the role name (a read-scoped token of an admin reads only)', () => {
    const got = rendered(me('admin', VIEWER))
    expect(Object.keys(got).filter((p) => got[p])).toEqual(['library:read', 'sources:read'])
  })

  it('a server from before sources lists none of their permissions: their screens and controls stay hidden', () => {
    const got = rendered(me('admin', ['account', 'connectors:read', 'library:read', 'connectors:push', 'library:write', 'connectors:admin']))
    expect([got['sources:read'], got['sources:search'], got['sources:admin']]).toEqual([false, false, false])
  })

  it('can() matches whole permission names only', () => {
    expect(can(['library:write'], 'library:write')).toBe(true)
    expect(can(['library:writer', 'library'], 'library:write')).toBe(false)
    expect(can(undefined, 'library:read')).toBe(false)
  })
})
