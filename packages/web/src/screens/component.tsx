import { ErrorBox } from '../ui/error-box'
import { ConflictNotice } from './component/conflict'
import { ComponentExtras } from './component/extras'
import { FieldsForm } from './component/fields-form'
import { ComponentHead } from './component/head'
import { useComponentEditor } from './component/use-editor'

/**
 * One component: every field editable, saved with `If-Match` so that a save
 * meeting a newer version (412) is refused, said, and offered a reload; it
 * never overwrites. `id` undefined: a new component.
 */
export default function ComponentScreen({ id }: { id: string | undefined }) {
  const editor = useComponentEditor(id)
  const { component, loaded, error } = editor
  if (id && component.isPending) return <p className="muted">Loading…</p>
  if (id && component.error) return <ErrorBox error={component.error} title="This component could not be loaded" />
  return (
    <section className="component">
      <ComponentHead id={id} loaded={loaded} busy={editor.action.isPending} onAction={(kind) => editor.action.mutate(kind)} />
      {editor.conflict ? <ConflictNotice changed={editor.changed} onReload={() => void editor.reload()} onKeep={editor.keepEdits} /> : <ErrorBox error={error} title="Not saved" />}
      {editor.saved && (
        <p role="status" className="ok">
          {editor.saved}
        </p>
      )}
      <FieldsForm
        id={id}
        loaded={loaded}
        draft={editor.draft}
        changed={editor.changed}
        error={error}
        saving={editor.save.isPending}
        comment={editor.comment}
        onComment={editor.setComment}
        onEdit={editor.edit}
        onSave={() => editor.save.mutate()}
        onDiscard={editor.discard}
      />
      {loaded && <ComponentExtras component={loaded} />}
    </section>
  )
}
