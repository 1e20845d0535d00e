// Saving the tool form's call (this server, this tool, these arguments) as a step of a collection
// file, with what the step checks: success, an error, or a text the result contains.

import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { type Check, CheckFields, checkBody, startCheck } from './check-fields.tsx'
import { reloadCollections, useCollections } from './collections-panel.tsx'

export function SaveCall({
  serverId,
  tool,
  value,
  idPrefix,
}: {
  serverId: string
  tool: string
  value: unknown
  idPrefix: string
}) {
  const collections = useCollections()
  const [file, setFile] = useState('calls.yaml')
  const [name, setName] = useState('')
  const [check, setCheck] = useState<Check>(startCheck)
  const [status, setStatus] = useState<{ ok: boolean; message: string }>()
  const id = (part: string) => `${idPrefix}-save-${part}`

  async function save() {
    setStatus(undefined)
    try {
      const saved = await api<{ file: string; steps: unknown[] }>('POST', '/api/collections/save', {
        serverId,
        tool,
        json: value,
        file,
        name,
        check: checkBody(check),
      })
      setStatus({ ok: true, message: `Saved as step ${saved.steps.length} of ${saved.file}` })
      await reloadCollections()
    } catch (error) {
      setStatus({ ok: false, message: (error as Error).message })
    }
  }

  return (
    <details class="save-call">
      <summary>Save to a collection</summary>
      {/* Inside the tool's form: Enter here saves the step, it does not call the tool. */}
      <fieldset
        class="fields"
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || (event.target as HTMLElement).tagName !== 'INPUT') return
          event.preventDefault()
          void save()
        }}
      >
        <legend class="visually-hidden">Save {tool} to a collection</legend>
        <label for={id('file')}>Collection file</label>
        <input
          id={id('file')}
          list={id('files')}
          value={file}
          onInput={(event) => setFile((event.target as HTMLInputElement).value)}
        />
        <datalist id={id('files')}>
          {collections?.collections.map((each) => (
            <option value={each.file} />
          ))}
        </datalist>
        <label for={id('name')}>Step name (optional)</label>
        <input
          id={id('name')}
          value={name}
          onInput={(event) => setName((event.target as HTMLInputElement).value)}
        />
        <CheckFields id={id('check')} check={check} onChange={setCheck} />
        <button type="button" onClick={() => void save()}>
          Save step
        </button>
        {status && (
          <p role="status" class={status.ok ? 'muted' : 'problems'} data-testid="save-status">
            {status.message}
          </p>
        )}
      </fieldset>
    </details>
  )
}
