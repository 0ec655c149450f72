import { useQuery } from '@tanstack/react-query'
import { templateQueries, type CategoryRecord, type CategoryTemplate } from '../../queries/templates'
import { fieldError } from '../../ui/error-box'
import type { Draft } from './draft'
import { applyFreeRows, bindTemplates, freeRowIndexes, parameterErrors, parametersError, setTemplateValue } from './parameter-rows'
import { RowsEditor } from './rows-editor'
import { TemplateField } from './template-fields'
import '../templates/templates.css'

type Rows = Draft['parameters']

/**
 * A component's parameters: first the fields its category's templates ask
 * for (decision 1416), then the free ones. Both edit the one list of
 * parameters the component is saved with; the server's error for one
 * parameter (`body.parameters[2].value`) is shown at the field it names.
 */
export function CategoryParameters(props: {
  rows: Rows
  templates: CategoryTemplate[]
  category: CategoryRecord | undefined
  error: unknown
  readOnly: boolean
  onChange: (rows: Rows) => void
}) {
  const { rows, templates, error, onChange } = props
  const types = useQuery({ ...templateQueries.parameterTypes(), enabled: templates.length > 0 })
  const bound = bindTemplates(rows, templates)
  const free = freeRowIndexes(rows, bound)
  const errors = parameterErrors(error, rows)
  const freeErrors = new Map(free.flatMap((row, k) => (errors.has(row) ? [[k, errors.get(row)!] as const] : [])))
  // A free row that a template binds (its name typed as the template's) fills that field: said under the row.
  const fills = new Map(templates.flatMap((t) => (bound.has(t.parameterTypeId) ? [[bound.get(t.parameterTypeId)!, t.parameterType] as const] : [])))
  const freeNotes = new Map(free.flatMap((row, k) => (fills.has(row) ? [[k, `Fills the ${fills.get(row)} field above.`] as const] : [])))
  const setFree = (next: Rows) => onChange(applyFreeRows(rows, free, next))
  const whole = parametersError(error)
  return (
    <>
      {templates.length > 0 && (
        <fieldset className="rows">
          <legend>Parameters of {props.category?.path}</legend>
          <p className="hint">
            From the category's templates
            {templates.some((t) => t.required) ? (
              <>
                ; <span className="required-mark">*</span> required
              </>
            ) : null}
            .
          </p>
          <div className="template-fields">
            {templates.map((t) => {
              const at = bound.get(t.parameterTypeId)
              const type = types.data?.find((x) => x.id === t.parameterTypeId)
              return (
                <TemplateField
                  key={t.parameterTypeId}
                  template={{ ...t, min: type?.min ?? null, max: type?.max ?? null }}
                  value={at === undefined ? '' : rows[at]!.value}
                  onChange={(value) => onChange(setTemplateValue(rows, t, at, value))}
                  error={at === undefined ? undefined : errors.get(at)}
                  readOnly={props.readOnly}
                />
              )
            })}
          </div>
          {whole && <p className="field-error">{whole}</p>}
        </fieldset>
      )}
      <RowsEditor
        legend="Parameters"
        hint={templates.length > 0 ? 'Any other parameter, free-form.' : undefined}
        rows={free.map((i) => rows[i]!)}
        fields={[
          { key: 'type', label: 'Parameter', placeholder: 'Resistance' },
          { key: 'value', label: 'Value', placeholder: '10k' },
          { key: 'unit', label: 'Unit', placeholder: 'Ω' },
        ]}
        empty={{ type: '', value: '', unit: '' }}
        onChange={setFree}
        readOnly={props.readOnly}
        rowErrors={freeErrors}
        rowNotes={freeNotes}
        error={templates.length > 0 ? undefined : (whole ?? (errors.size === 0 ? fieldError(error, 'body.parameters') : undefined))}
      />
    </>
  )
}
