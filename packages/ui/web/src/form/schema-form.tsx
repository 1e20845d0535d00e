// A form generated from an object's JSON Schema, with a raw-JSON view of the same value. The value
// is kept typed; checking it against the schema is the backend's (the CLI's own code).

import { useState } from 'preact/hooks'
import type { Schema } from '../types.ts'
import { ObjectFields, type Problem } from './fields.tsx'
import { initialValue, normalize } from './schema.ts'

export interface SchemaFormProps {
  id: string
  schema: Schema
  value: Record<string, unknown>
  onChange: (value: Record<string, unknown>) => void
  problems: readonly Problem[]
}

export function startValue(schema: Schema): Record<string, unknown> {
  const value = initialValue({ type: 'object', ...schema }, schema)
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

export function SchemaForm({ id, schema, value, onChange, problems }: SchemaFormProps) {
  const [raw, setRaw] = useState(false)
  const [text, setText] = useState('')
  const [bad, setBad] = useState<string>()
  const root = schema
  const object = normalize(schema, root)
  const hasFields = Object.keys((object.properties ?? {}) as Schema).length > 0
  return (
    <div class="schema-form">
      <div class="form-mode">
        <button
          type="button"
          class="small"
          aria-pressed={raw}
          onClick={() => {
            if (!raw) setText(JSON.stringify(value, null, 2))
            setRaw(!raw)
            setBad(undefined)
          }}
        >
          {raw ? 'Form' : 'Raw JSON'}
        </button>
      </div>
      {raw ? (
        <div class="field">
          <label for={`${id}-raw`}>Arguments as JSON</label>
          <textarea
            id={`${id}-raw`}
            class="json"
            rows={10}
            value={text}
            aria-invalid={bad !== undefined}
            aria-describedby={`${id}-raw-error`}
            onInput={(event) => {
              const next = (event.target as HTMLTextAreaElement).value
              setText(next)
              try {
                const parsed = JSON.parse(next === '' ? '{}' : next) as unknown
                if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
                  throw new Error('the arguments are a JSON object')
                setBad(undefined)
                onChange(parsed as Record<string, unknown>)
              } catch (error) {
                setBad((error as Error).message)
              }
            }}
          />
          <div id={`${id}-raw-error`} class="field-error" role="alert">
            {bad}
          </div>
        </div>
      ) : hasFields ? (
        <ObjectFields
          id={id}
          label="arguments"
          schema={object}
          root={root}
          value={value}
          onChange={(next) => onChange(next as Record<string, unknown>)}
          required
          path=""
          problems={problems}
        />
      ) : (
        <p class="muted">No parameters.</p>
      )}
    </div>
  )
}
