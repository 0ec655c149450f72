import type { Component } from '@complib/client-sdk'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { commented } from '../../api'
import { componentSaved } from '../../queries/components'
import { ErrorBox } from '../../ui/error-box'

/**
 * "Restore this version": asks for an optional comment, then makes the
 * component's fields those of `version` again, as a new version (with
 * If-Match: a newer save in between is refused, never overwritten).
 */
export function RestoreVersion({ component, version }: { component: Component; version: number }) {
  const [asking, setAsking] = useState(false)
  const [comment, setComment] = useState('')
  const queryClient = useQueryClient()
  const revert = useMutation({
    mutationFn: () => commented(comment).components.revert(component.id, version, { ifMatch: component.version }),
    onSuccess: (c) => {
      setAsking(false)
      setComment('')
      return componentSaved(queryClient, c)
    },
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    revert.mutate()
  }
  if (!asking)
    return (
      <button type="button" className="restore" onClick={() => setAsking(true)}>
        Restore this version
      </button>
    )
  return (
    <form className="restore-form" onSubmit={submit} aria-label={`Restore version ${version}`}>
      <label>
        Why (optional)
        <input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={1000} placeholder="The datasheet was right after all" autoFocus />
      </label>
      <div className="actions">
        <button type="submit" className="primary" disabled={revert.isPending}>
          {revert.isPending ? 'Restoring…' : `Restore version ${version}`}
        </button>
        <button type="button" onClick={() => (setAsking(false), revert.reset())}>
          Cancel
        </button>
      </div>
      <ErrorBox error={revert.error} title="Not restored" />
    </form>
  )
}
