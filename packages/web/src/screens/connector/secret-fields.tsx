import type { Connector } from '@complib/client-sdk'
import { fieldError } from '../../ui/error-box'
import { newSecret } from './settings'

/** The signing secret: its hint when set, a new one typed or generated here, and Rotate. */
export function SecretFields(props: { connector: Connector | undefined; secret: string; error: unknown; rotating: boolean; onSecret: (s: string) => void; onRotate: () => void }) {
  const { connector: c, secret, error } = props
  return (
    <fieldset>
      <legend>Signing secret</legend>
      <p>
        {c?.secretHint ? (
          <>
            In use: <code>{c.secretHint}</code> (never shown whole).
          </>
        ) : (
          'Leave empty and one is generated; set your own to give the same to the receiver.'
        )}
      </p>
      <label>
        {c ? 'New secret (empty: generate one)' : 'Secret (optional)'}
        <input value={secret} onChange={(e) => props.onSecret(e.target.value)} placeholder="whsec_…" autoComplete="off" spellCheck={false} />
        {fieldError(error, 'body.secret') && <span className="field-error">{fieldError(error, 'body.secret')}</span>}
      </label>
      <div className="actions">
        <button type="button" onClick={() => props.onSecret(newSecret())}>
          Generate a secret here
        </button>
        {c && (
          <button type="button" onClick={props.onRotate} disabled={props.rotating}>
            Rotate the secret
          </button>
        )}
      </div>
      <p className="hint">A secret generated here is shown until you save: copy it for the receiver first.</p>
    </fieldset>
  )
}
