// What a saved step checks, as fields: success, an error, or a text at a JSONPath of the result.
// Used when a call is saved and when a saved step's check is changed.

export interface Check {
  kind: 'success' | 'error' | 'contains'
  path: string
  text: string
}

export const startCheck: Check = { kind: 'success', path: '$.content[0].text', text: '' }

/** The check as the backend takes it. */
export function checkBody(check: Check): Record<string, string> {
  return check.kind === 'contains'
    ? { kind: check.kind, path: check.path, text: check.text }
    : { kind: check.kind }
}

/** A step's expectations as the fields show them (a first `contains` JSON assertion, an error, else success). */
export function checkOf(expect: Record<string, unknown> | undefined): Check {
  if (expect?.error !== undefined && expect.error !== false) return { ...startCheck, kind: 'error' }
  const json = Array.isArray(expect?.json) ? (expect.json as Array<Record<string, unknown>>) : []
  const contains = json.find((each) => typeof each.contains === 'string')
  return contains === undefined
    ? startCheck
    : { kind: 'contains', path: String(contains.path), text: String(contains.contains) }
}

export function CheckFields({
  id,
  check,
  onChange,
}: {
  id: string
  check: Check
  onChange: (check: Check) => void
}) {
  return (
    <>
      <label for={`${id}-kind`}>The step expects</label>
      <select
        id={`${id}-kind`}
        value={check.kind}
        onChange={(event) =>
          onChange({ ...check, kind: (event.target as HTMLSelectElement).value as Check['kind'] })
        }
      >
        <option value="success">success (no error)</option>
        <option value="error">an error</option>
        <option value="contains">the result to contain a text</option>
      </select>
      {check.kind === 'contains' && (
        <>
          <label for={`${id}-path`}>At (JSONPath)</label>
          <input
            id={`${id}-path`}
            value={check.path}
            onInput={(event) => onChange({ ...check, path: (event.target as HTMLInputElement).value })}
          />
          <label for={`${id}-text`}>Text</label>
          <input
            id={`${id}-text`}
            value={check.text}
            onInput={(event) => onChange({ ...check, text: (event.target as HTMLInputElement).value })}
          />
        </>
      )}
    </>
  )
}
