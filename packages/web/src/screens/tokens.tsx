import type { ApiToken } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api'
import { accountQueries, tokensChanged } from '../queries/accounts'
import { authQueries, can } from '../queries/auth'
import { ErrorBox } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'
import { NewToken } from './tokens/new-token'

/**
 * API tokens: one's own, created here (shown once) and revoked; admins may
 * list everyone's. The API key and keyless mode own none (tokens belong to accounts).
 */
export default function TokensScreen() {
  const me = useQuery(authQueries.me()).data!
  const admin = can(me.permissions, 'users:admin')
  const [everyone, setEveryone] = useState(!me.user)
  const all = everyone && admin
  const list = useQuery(accountQueries.tokens(all))
  const queryClient = useQueryClient()
  const revoke = useMutation({
    mutationFn: (t: ApiToken) => api().tokens.revoke(t.id),
    onSuccess: () => tokensChanged(queryClient),
  })

  return (
    <section className="tokens">
      <div className="screen-head">
        <h1>API tokens</h1>
        <p className="muted">
          For scripts and KiCad: send one as <code>Authorization: Bearer …</code>. A token does at most what its scope says, and never more than its owner’s role.
        </p>
      </div>
      {me.user ? (
        <NewToken role={me.role} />
      ) : (
        <p className="panel">Tokens belong to accounts: sign in as a user to make one. {admin && 'As an admin you can see and revoke everyone’s.'}</p>
      )}
      <h2>{all ? 'Everyone’s tokens' : 'My tokens'}</h2>
      {admin && me.user && (
        <label className="inline-check">
          <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.target.checked)} /> Show everyone’s tokens
        </label>
      )}
      <ErrorBox error={list.error ?? revoke.error} />
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Name</th>
            {all && <th scope="col">Owner</th>}
            <th scope="col">Scope</th>
            <th scope="col">Starts with</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.length === 0 && (
            <tr>
              <td colSpan={all ? 8 : 7} className="muted">
                No tokens yet.
              </td>
            </tr>
          )}
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              {all && <td>{t.owner.username}</td>}
              <td>{t.scope}</td>
              <td>
                <code>{t.prefix}…</code>
              </td>
              <td title={dateTime(t.createdAt)}>{relativeTime(t.createdAt)}</td>
              <td title={dateTime(t.expiresAt)}>{t.expiresAt ? dateTime(t.expiresAt) : 'never'}</td>
              <td title={dateTime(t.lastUsedAt)}>{relativeTime(t.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  disabled={revoke.isPending}
                  onClick={() => confirm(`Revoke the token ${t.name}? Whatever uses it stops working at once.`) && revoke.mutate(t)}
                  aria-label={`Revoke ${t.name}`}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
