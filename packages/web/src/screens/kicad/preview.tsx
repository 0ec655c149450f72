import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { kicadSettingsQueries } from '../../queries/kicad'
import { ErrorBox } from '../../ui/error-box'

/**
 * One part's fields as KiCad gets them, read from the KiCad route itself, so
 * what is shown is what the server sends with the settings as saved.
 */
export function KicadPreview() {
  const choices = useQuery(kicadSettingsQueries.previewChoices())
  const [chosen, setChosen] = useState<string>()
  const id = chosen ?? choices.data?.[0]?.id
  const part = useQuery({ ...kicadSettingsQueries.preview(id ?? ''), enabled: !!id })
  const selectId = useId()
  return (
    <section aria-labelledby="kicad-preview-h">
      <h3 id="kicad-preview-h">Preview: a part as KiCad gets it (saved settings)</h3>
      <ErrorBox error={choices.error ?? part.error} title="The preview could not be read" />
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
