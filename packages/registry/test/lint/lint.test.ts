import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { lintServerJson } from '../../src/index.js'

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tooling/fixtures/registry/${name}`, import.meta.url), 'utf8')
const schema = JSON.parse(fixture('server.schema.json')) as Record<string, unknown>

describe('lintServerJson', () => {
  it('passes a valid server.json, with the schema and without', () => {
    expect(lintServerJson(fixture('server.json'), { schema })).toMatchObject({ ok: true, problems: [] })
    expect(lintServerJson(fixture('server.json'))).toMatchObject({ ok: true, problems: [] })
  })

  it('reports each seeded mistake at its line', () => {
    const { ok, problems } = lintServerJson(fixture('server-with-mistakes.json'), { schema })
    expect(ok).toBe(false)
    const at = (line: number) =>
      problems.filter((problem) => problem.line === line).map((problem) => problem.message)
    expect(at(3)).toContainEqual(expect.stringContaining("namespace 'acme' is not reverse-DNS"))
    expect(at(4)).toContainEqual('is longer than 100 characters')
    expect(at(5)).toContainEqual(expect.stringContaining('version is a range'))
    expect(at(9)).toContainEqual("'Server Everything' is not a valid npm package name")
    expect(at(10)).toContainEqual(expect.stringContaining("package version is 'latest'"))
    expect(at(11)).toContainEqual(expect.stringContaining("'bash' is not how npm packages run"))
    expect(at(13)).toContainEqual(
      expect.stringContaining("a named argument is a flag with its dashes ('--port')"),
    )
    expect(at(19)).toContainEqual("{region} in the URL is not one of the remote's 'variables'")
    // Columns point at the key of the value.
    expect(problems.find((problem) => problem.line === 5)?.column).toBe(3)
  })

  it('points at syntax errors and never throws for what a file says', () => {
    const { problems } = lintServerJson('{\n  "name": "io.github.a/b",\n  "version": "1.0.0",,\n}')
    expect(problems[0]).toMatchObject({ line: 3, rule: 'json', severity: 'error' })
    expect(lintServerJson('[]').problems[0]?.message).toBe('a server.json is a JSON object')
    expect(lintServerJson('').ok).toBe(false)
  })

  it('reports a required field missing at the object that lacks it', () => {
    const text =
      '{\n  "name": "io.github.a/b",\n  "version": "1.0.0",\n  "packages": [\n    { "registryType": "npm" }\n  ]\n}'
    const { problems } = lintServerJson(text, { schema })
    expect(problems).toContainEqual(
      expect.objectContaining({ line: 1, message: "'description' is required" }),
    )
    expect(problems).toContainEqual(expect.objectContaining({ line: 5, message: "'identifier' is required" }))
  })
})
