import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { kicadSettingsQueries, type KicadSettings } from '../../queries/kicad'
import { ErrorBox } from '../../ui/error-box'

/**
 * One part's fields as KiCad will get them with the settings on the screen,
 * made by the server from them before they are saved.
 */
export function KicadPreview({ kicad }: { kicad: KicadSettings }) {
  const choices = useQuery(kicadSettingsQueries.previewChoices())
  const [chosen, setChosen] = useState<string>()
  const id = chosen ?? choices.data?.[0]?.id
  const part = useQuery({ ...kicadSettingsQueries.preview(id ?? '', kicad), enabled: !!id })
  const selectId = useId()
  return (
    <section aria-labelledby="kicad-preview-h">
      <h3 id="kicad-preview-h">Preview: a part as KiCad will get it</h3>
      <ErrorBox error={choices.error} title="The parts could not be read" />
      {part.error && <p className="muted">No preview for these settings: {part.error.message}</p>}
      {choices.data?.length === 0 && <p className="muted">No part has a category yet, so KiCad lists none.</p>}
      {!!choices.data?.length && (
        <>
          <label htmlFor={selectId}>Part</label>
          <select id={selectId} value={id} onChange={(e) => setChosen(e.target.value)}>
            {choices.data.map((c) => (
              <option key={c.id} value={c.id}>
                {c.ipn} · {c.name}
              </option>
            ))}
          </select>
        </>
      )}
      {part.data && (
        <table className="simple" aria-label="Fields KiCad gets">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">On the schematic</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(part.data.fields).map(([name, f]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{f.value}</td>
                <td>{f.visible === 'True' ? 'shown' : 'hidden'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
