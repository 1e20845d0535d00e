import { describe, expect, test } from 'vitest'
import { compileFilter, defaultPrefix, maximumNameLength, namespacedName } from '../src/naming.js'

describe('names', () => {
  test('upstream__tool by default, as MetaMCP and Docker do', () => {
    expect(namespacedName(defaultPrefix('github'), 'create_issue')).toBe('github__create_issue')
    expect(namespacedName('', 'echo')).toBe('echo')
    expect(namespacedName('gh_', 'list')).toBe('gh_list')
  })

  test('characters clients refuse and long names are shortened deterministically, within 64', () => {
    const dotted = namespacedName(defaultPrefix('my.server'), 'tool.with.dots')
    expect(dotted).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(dotted).toBe(namespacedName(defaultPrefix('my.server'), 'tool.with.dots'))
    const long = namespacedName(defaultPrefix('upstream'), 'x'.repeat(100))
    expect(long.length).toBe(maximumNameLength)
    expect(long).toBe(namespacedName(defaultPrefix('upstream'), 'x'.repeat(100)))
    // Two long names that share their first 64 characters still differ.
    expect(namespacedName('u__', `${'y'.repeat(80)}a`)).not.toBe(namespacedName('u__', `${'y'.repeat(80)}b`))
  })
})

describe('filters', () => {
  test('null: everything; []: nothing; names and globs: those', () => {
    expect(compileFilter(null)('any')).toBe(true)
    expect(compileFilter(undefined)('any')).toBe(true)
    expect(compileFilter([])('any')).toBe(false)
    const some = compileFilter(['echo', 'get-*', 'file?.txt'])
    expect(['echo', 'get-sum', 'file1.txt', 'echoes', 'xget-sum', 'file12.txt'].map(some)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ])
    // Regular-expression characters in names are literal.
    expect(compileFilter(['a.b'])('axb')).toBe(false)
  })
})
