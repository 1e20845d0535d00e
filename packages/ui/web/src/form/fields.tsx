// One field of a generated form, by the widget its schema calls for; objects, arrays and choices
// hold fields of their own. Every value is typed as the schema says (numbers are numbers), and
// unset fields are left out. Labels are tied to their inputs, so the form works by keyboard and
// with a screen reader.

import { useState } from 'preact/hooks'
import type { Schema } from '../types.ts'
import { describedBy, Errors, type FieldProps, Hint, JsonField } from './field-parts.tsx'
import { classify, initialValue, matchingVariant, normalize, variantLabel } from './schema.ts'

export type { FieldProps, Problem } from './field-parts.tsx'

export function Field(props: FieldProps) {
  const { id, label, root, value, onChange, required, path, problems } = props
  const { schema, nullable, kind } = classify(props.schema, root)
  const [multiline, setMultiline] = useState(kind.kind === 'string' && kind.multiline)
  const isNull = value === null
  const title =
    typeof schema.title === 'string' && schema.title !== label ? `${label} — ${schema.title}` : label
  const labelFor = kind.kind === 'object' || kind.kind === 'array' || kind.kind === 'choice' ? undefined : id
  const described = describedBy(id, problems, path)
  const invalid = problems.some((problem) => problem.path === path)

  let control: preact.ComponentChildren
  if (isNull) control = <span class="null">null</span>
  else
    switch (kind.kind) {
      case 'enum':
        control = (
          <select
            id={id}
            aria-required={required}
            aria-describedby={described}
            aria-invalid={invalid}
            value={String(kind.values.findIndex((each) => JSON.stringify(each) === JSON.stringify(value)))}
            onChange={(event) => {
              const index = Number((event.target as HTMLSelectElement).value)
              onChange(index < 0 ? undefined : kind.values[index])
            }}
          >
            <option value="-1">{required ? '— choose —' : '— unset —'}</option>
            {kind.values.map((each, index) => (
              <option value={String(index)}>{typeof each === 'string' ? each : JSON.stringify(each)}</option>
            ))}
          </select>
        )
        break
      case 'const':
        control = <code id={id}>{JSON.stringify(kind.value)}</code>
        break
      case 'string':
        control = (
          <div class="string-field">
            {multiline ? (
              <textarea
                id={id}
                aria-required={required}
                rows={4}
                value={typeof value === 'string' ? value : ''}
                aria-describedby={described}
                aria-invalid={invalid}
                onInput={(event) => onChange((event.target as HTMLTextAreaElement).value)}
              />
            ) : (
              <input
                id={id}
                aria-required={required}
                type={(kind.format === 'email' ? 'email' : kind.format === 'uri' ? 'url' : 'text') as 'text'}
                value={typeof value === 'string' ? value : ''}
                aria-describedby={described}
                aria-invalid={invalid}
                onInput={(event) => {
                  const text = (event.target as HTMLInputElement).value
                  onChange(text === '' && !required ? undefined : text)
                }}
              />
            )}
            <button
              type="button"
              class="small"
              aria-pressed={multiline}
              onClick={() => setMultiline(!multiline)}
              title="Edit on several lines"
            >
              ¶<span class="visually-hidden"> several lines for {label}</span>
            </button>
          </div>
        )
        break
      case 'number':
        control = (
          <input
            id={id}
            aria-required={required}
            type="number"
            step={kind.integer ? '1' : 'any'}
            min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
            max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
            value={typeof value === 'number' ? String(value) : ''}
            aria-describedby={described}
            aria-invalid={invalid}
            onInput={(event) => {
              const text = (event.target as HTMLInputElement).value
              onChange(text === '' ? undefined : Number(text))
            }}
          />
        )
        break
      case 'boolean':
        control = (
          <input
            id={id}
            aria-required={required}
            type="checkbox"
            checked={value === true}
            aria-describedby={described}
            onChange={(event) => onChange((event.target as HTMLInputElement).checked)}
          />
        )
        break
      case 'object':
        control = <ObjectFields {...props} schema={schema} />
        break
      case 'array':
        control = <ArrayField {...props} schema={schema} items={kind.items} />
        break
      case 'choice':
        control = <ChoiceField {...props} schema={schema} variants={kind.variants} />
        break
      case 'json':
        control = <JsonField {...props} schema={schema} />
        break
    }

  const body = (
    <>
      {control}
      {nullable && (
        <label class="inline">
          <input
            type="checkbox"
            checked={isNull}
            onChange={(event) =>
              onChange((event.target as HTMLInputElement).checked ? null : initialValue(props.schema, root))
            }
          />{' '}
          null
        </label>
      )}
      <Hint schema={schema} id={id} />
      <Errors problems={problems} path={path} id={id} />
    </>
  )
  if (labelFor === undefined) {
    return (
      <fieldset class="field group" aria-describedby={`${id}-hint`}>
        <legend>
          {title}
          {required && <span class="required"> (required)</span>}
        </legend>
        {body}
      </fieldset>
    )
  }
  return (
    <div class="field">
      <label for={labelFor}>{title}</label>
      {required && (
        <span class="required" aria-hidden="true">
          {' '}
          required
        </span>
      )}
      {body}
    </div>
  )
}

export function ObjectFields(props: FieldProps & { schema: Schema }) {
  const { schema, root, id, path, problems } = props
  const value = (typeof props.value === 'object' && props.value !== null ? props.value : {}) as Record<
    string,
    unknown
  >
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>)
  return (
    <div class="object">
      {properties.map(([name, property]) => (
        <Field
          key={name}
          id={`${id}.${name.replace(/[^A-Za-z0-9_-]/g, '_')}`}
          label={name}
          schema={property}
          root={root}
          value={value[name]}
          required={required.has(name)}
          path={path === '' ? name : `${path}.${name}`}
          problems={problems}
          onChange={(next) => {
            const copy = { ...value }
            if (next === undefined) delete copy[name]
            else copy[name] = next
            props.onChange(copy)
          }}
        />
      ))}
    </div>
  )
}

function ArrayField(props: FieldProps & { schema: Schema; items: Schema }) {
  const { id, root, items, path, problems, label } = props
  const value = Array.isArray(props.value) ? props.value : []
  return (
    <div class="array">
      {value.map((item, index) => (
        <div class="array-item" key={index}>
          <Field
            id={`${id}.${index}`}
            label={`${label} ${index + 1}`}
            schema={items}
            root={root}
            value={item}
            required
            path={`${path}[${index}]`}
            problems={problems}
            onChange={(next) => props.onChange(value.map((each, at) => (at === index ? next : each)))}
          />
          <button
            type="button"
            class="small"
            onClick={() => props.onChange(value.filter((_, at) => at !== index))}
          >
            Remove
            <span class="visually-hidden">
              {' '}
              {label} {index + 1}
            </span>
          </button>
        </div>
      ))}
      <button
        type="button"
        class="small"
        onClick={() => props.onChange([...value, initialValue(items, root)])}
      >
        Add<span class="visually-hidden"> an item to</span> {label}
      </button>
    </div>
  )
}

function ChoiceField(props: FieldProps & { schema: Schema; variants: Schema[] }) {
  const { id, root, variants, label } = props
  const [chosen, setChosen] = useState(() => matchingVariant(variants, props.value, root))
  const variant = normalize(variants[chosen], root)
  return (
    <div class="choice">
      <label class="inline" for={`${id}-variant`}>
        Kind of {label}{' '}
        <select
          id={`${id}-variant`}
          value={String(chosen)}
          onChange={(event) => {
            const index = Number((event.target as HTMLSelectElement).value)
            setChosen(index)
            props.onChange(initialValue(variants[index], root))
          }}
        >
          {variants.map((each, index) => (
            <option value={String(index)}>{variantLabel(normalize(each, root), index)}</option>
          ))}
        </select>
      </label>
      <Field
        {...props}
        key={chosen}
        id={`${id}-${chosen}`}
        schema={variant}
        label={`${label} (${variantLabel(variant, chosen)})`}
      />
    </div>
  )
}
