import type { Me } from '@complib/client-sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import { api, getApiKey, setApiKey } from '../api'
import { authEvents } from '../auth-state'
import { can } from '../queries/auth'
import { href } from '../router'

/**
 * Who is signed in, as what, and their own things: password, API tokens,
 * sign out. In keyless loopback mode there is no account to show or leave.
 */
export function UserMenu({ me }: { me: Me }) {
  const queryClient = useQueryClient()
  const menu = useRef<HTMLDetailsElement>(null)
  const close = () => menu.current?.removeAttribute('open')
  const local = !me.authRequired
  const name = local ? 'local (no accounts)' : (me.user?.displayName ?? me.actor.name)
  const keyed = !!getApiKey()

  async function signOut() {
    close()
    // A session ends on the server; a key or token is only forgotten by this tab.
    if (me.user && !keyed) await api().auth.logout().catch(() => undefined)
    setApiKey(undefined)
    queryClient.clear()
    authEvents.needSignIn()
  }

  return (
    <details className="user-menu" ref={menu}>
      <summary>
        <span className="user-name">{name}</span> <span className="role">{me.role}</span>
      </summary>
      <ul role="list">
        {me.user && !keyed && (
          <li>
            <a href={href('/password')} onClick={close}>
              Change password
            </a>
          </li>
        )}
        {(me.user || can(me.permissions, 'users:admin')) && (
          <li>
            <a href={href('/tokens')} onClick={close}>
              API tokens
            </a>
          </li>
        )}
        {!local && (
          <li>
            <button type="button" className="link" onClick={() => void signOut()}>
              Sign out
            </button>
          </li>
        )}
      </ul>
    </details>
  )
}
