import { PreconditionFailedError } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api, commented } from '../../api'
import { componentQueries, componentSaved, invalidateComponentLists } from '../../queries/components'
import { navigate } from '../../router'
import { NEW_DRAFT, rebaseDraft, toDraft, toFields, toPatch, type Draft } from './draft'

/**
 * The component being edited: the version read, the draft, and the
 * mutations. Saves go with `If-Match`, so a save meeting a newer version
 * (412) is refused and said (`conflict`), never overwriting. `id`
 * undefined: a new component.
 */
export function useComponentEditor(id: string | undefined) {
  const queryClient = useQueryClient()
  const component = useQuery(componentQueries.detail(id))
  const [base, setBase] = useState<Draft>(NEW_DRAFT)
  const [draft, setDraft] = useState<Draft>(NEW_DRAFT)
  /** The version `base` was read at: what a save sends as If-Match. */
  const [baseVersion, setBaseVersion] = useState<number>()
  const [conflict, setConflict] = useState(false)
  const [saved, setSaved] = useState<string>()
  /** Why: sent with the save (`Complib-Comment`), kept in the history and the audit trail. */
  const [comment, setComment] = useState('')
  const loaded = component.data
  // A newer version arrives (first load, a save, an upload or removed file, which
  // count as changes of the component): unsaved edits are carried over onto it
  // unless it changed the same fields, so a file added mid-edit neither discards
  // the edits nor makes the next save meet a 412 of its own making.
  useEffect(() => {
    if (!loaded) return
    const latest = toDraft(loaded)
    const next = baseVersion === undefined ? latest : rebaseDraft(base, draft, latest)
    if (!next) return
    setBase(latest)
    setDraft(next)
    setBaseVersion(loaded.version)
    // Only a new `loaded` moves the base; the edits are read as they stand then.
  }, [loaded])

  const save = useMutation({
    mutationFn: async () => {
      const client = commented(comment)
      if (!id) return client.components.create(_withoutEmptyIpn(toFields(draft)))
      return client.components.patch(id, toPatch(base, draft), { ifMatch: baseVersion ?? loaded!.version })
    },
    onSuccess: (c) => {
      setConflict(false)
      setComment('')
      setSaved(`Saved version ${c.version}.`)
      setBase(toDraft(c))
      setDraft(toDraft(c))
      setBaseVersion(c.version)
      void componentSaved(queryClient, c)
      if (!id) navigate(`/components/${c.id}`)
    },
    onError: (error) => {
      setSaved(undefined)
      if (error instanceof PreconditionFailedError) setConflict(true)
    },
  })
  const action = useMutation({
    mutationFn: async (kind: 'duplicate' | 'delete' | 'restore') => {
      if (kind === 'duplicate') return { kind, c: await api().components.duplicate(id!) }
      if (kind === 'delete') {
        await api().components.delete(id!, { ifMatch: loaded!.version })
        return { kind, c: await api().components.get(id!, { includeDeleted: true }) }
      }
      return { kind, c: await api().components.restore(id!) }
    },
    onSuccess: ({ kind, c }) => {
      if (kind === 'duplicate') {
        void invalidateComponentLists(queryClient)
        navigate(`/components/${c.id}`)
      } else {
        setSaved(kind === 'delete' ? 'Deleted. Restore brings it back.' : 'Restored.')
        void componentSaved(queryClient, c)
      }
    },
    onError: (error) => error instanceof PreconditionFailedError && setConflict(true),
  })

  const reload = async () => {
    const latest = await component.refetch()
    if (latest.data) {
      setBase(toDraft(latest.data))
      setDraft(toDraft(latest.data))
      setBaseVersion(latest.data.version)
    }
    setConflict(false)
    save.reset()
    action.reset()
  }
  const edit = (patch: Partial<Draft>) => {
    setSaved(undefined)
    setDraft((d) => ({ ...d, ...patch }))
  }

  return {
    component,
    loaded,
    draft,
    /** The fields changed since the version read (none for a new component). */
    changed: id ? Object.keys(toPatch(base, draft)) : [],
    conflict,
    saved,
    comment,
    setComment,
    save,
    action,
    error: save.error ?? action.error,
    edit,
    discard: () => setDraft(base),
    keepEdits: () => setConflict(false),
    reload,
  }
}

function _withoutEmptyIpn<T extends { ipn: string }>(fields: T): Omit<T, 'ipn'> & { ipn?: string } {
  const { ipn, ...rest } = fields
  return ipn ? { ...rest, ipn } : rest
}
