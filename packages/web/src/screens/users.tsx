import type { ComplibClient, Role, User } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../api'
import { accountQueries, usersChanged } from '../queries/accounts'
import { meChanged } from '../queries/auth'
import { ErrorBox } from '../ui/error-box'
import { dateTime, relativeTime } from '../ui/format'
import { NewUser } from './users/new-user'
import { ResetPassword } from './users/reset-password'

const ROLES: Role[] = ['viewer', 'editor', 'admin']
type UserPatch = Parameters<ComplibClient['users']['patch']>[1]

/** The team's accounts (admins): create one, change a role, disable or enable, reset a password. */
export default function UsersScreen() {
  const list = useQuery(accountQueries.users())
  const queryClient = useQueryClient()
  const [notice, setNotice] = useState<string>()
  const [resetting, setResetting] = useState<User>()
  const patch = useMutation({
    mutationFn: ({ user, body }: { user: User; body: UserPatch; done: string }) => api().users.patch(user.id, body, { ifMatch: user.version }),
    onSuccess: (_u, { done }) => {
      setNotice(done)
      setResetting(undefined)
      // One's own role may have changed: what the page offers follows.
      return Promise.all([usersChanged(queryClient), meChanged(queryClient)])
    },
    onError: () => setNotice(undefined),
  })

  return (
    <section className="users">
      <div className="screen-head">
        <h1>Users</h1>
        <p className="muted">A viewer reads the library; an editor changes it; an admin also runs the team, connectors, the audit trail and settings.</p>
      </div>
      <NewUser onCreated={(u) => setNotice(`Created ${u.username} (${u.role}).`)} />
      <ErrorBox error={list.error ?? patch.error} title={patch.error ? 'Not changed' : undefined} />
      {notice && (
        <p role="status" className="ok">
          {notice}
        </p>
      )}
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">User name</th>
            <th scope="col">Display name</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last sign-in</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((u) => (
            <tr key={u.id} className={u.disabled ? 'disabled-row' : undefined}>
              <td>{u.username}</td>
              <td>{u.displayName}</td>
              <td>
                <select
                  aria-label={`Role of ${u.username}`}
                  value={u.role}
                  disabled={patch.isPending}
                  onChange={(e) => patch.mutate({ user: u, body: { role: e.target.value as Role }, done: `${u.username} is now ${e.target.value}.` })}
                >
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </td>
              <td>{u.disabled ? 'disabled' : 'active'}</td>
              <td title={dateTime(u.lastLoginAt)}>{relativeTime(u.lastLoginAt)}</td>
              <td>
                <div className="actions">
                  <button
                    type="button"
                    className={u.disabled ? undefined : 'danger'}
                    disabled={patch.isPending}
                    onClick={() =>
                      (u.disabled || confirm(`Disable ${u.username}? Their sessions and tokens stop working; their history keeps their name.`)) &&
                      patch.mutate({ user: u, body: { disabled: !u.disabled }, done: `${u.username} is ${u.disabled ? 'enabled' : 'disabled'}.` })
                    }
                  >
                    {u.disabled ? 'Enable' : 'Disable'}
                  </button>
                  <button type="button" onClick={() => setResetting(u)} aria-label={`Reset password of ${u.username}`}>
                    Reset password
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {resetting && (
        <ResetPassword
          user={resetting}
          busy={patch.isPending}
          onCancel={() => setResetting(undefined)}
          onReset={(password) => patch.mutate({ user: resetting, body: { password }, done: `New password set for ${resetting.username}; their sessions ended.` })}
        />
      )}
    </section>
  )
}
