import { javascript } from '@codemirror/lang-javascript'
import { EditorView, basicSetup } from 'codemirror'
import { useEffect, useRef } from 'react'

/**
 * CodeMirror 6 over the connector code (loaded only on the connector
 * screen: it is most of that screen's JavaScript). Tab indents; Escape then
 * Tab leaves the editor (CodeMirror's own keyboard trap escape).
 */
export default function CodeEditor({ value, onChange, label }: { value: string; onChange: (code: string) => void; label: string }) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | undefined>(undefined)
  const latest = useRef(onChange)
  latest.current = onChange
  useEffect(() => {
    view.current = new EditorView({
      doc: value,
      parent: host.current!,
      extensions: [
        basicSetup,
        javascript(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((u) => u.docChanged && latest.current(u.state.doc.toString())),
      ],
    })
    return () => view.current?.destroy()
    // The editor owns its text after the first render; outside changes come through the effect below.
  }, [])
  useEffect(() => {
    const v = view.current
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } })
  }, [value])
  return <div className="cm-host" ref={host} />
}
