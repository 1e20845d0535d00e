// Secrets kept out of profiles: what is taken out (and what is not), that the profile plus the
// store give back exactly what was imported, the store file, `${secret:KEY}` when a profile is
// loaded, the project ignore file, and translating other clients' `${…}` forms.

import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  isSecretHeader,
  isSecretName,
  loadProfile,
  type ProfileMeta,
  readSecrets,
  secretKeys,
  separateSecrets,
  writeProfile,
  writeSecrets,
} from '../../src/index.js'
import { substituteValue, translateConfigVariables, workspaceFolderOf } from '../../src/internal.js'
// Not exported: the .gitignore a project's .mcp-kit/ gets.
import { projectIgnore } from '../../src/store/write-profile.js'

let directory: string
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mcp-kit-secrets-'))
})
afterEach(async () => rm(directory, { recursive: true, force: true }))

/** The profile's `${secret:KEY}` filled in from `secrets`, as loading it does. */
function restore(meta: ProfileMeta, secrets: Record<string, string>): ProfileMeta {
  const variables = Object.fromEntries(
    Object.entries(secrets).map(([key, value]) => [`secret:${key}`, value]),
  )
  return substituteValue(meta, variables, 'profile.json')
}

describe('separateSecrets', () => {
  it('takes secret-named env values, credential headers, secret flags and URL secrets out', () => {
    const meta: ProfileMeta = {
      command: 'npx',
      args: ['-y', 'server', '--api-key', 'k-123', '--token=t-456', '--verbose', '--port', '8080'],
      env: {
        GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal',
        OPENAI_API_KEY: 'sk-abc',
        DB_PASSWORD: 'hunter2',
        LOG_LEVEL: 'debug',
        GIT_AUTHOR_NAME: 'Ada',
        TOKEN_FILE: '/run/token',
        FROM_ENV: '${SOME_TOKEN}',
        SHAPED: 'ghp_0123456789abcdefghijABCDEFGHIJ',
        DATABASE_URL: 'postgres://app:pa55@db:5432/app',
      },
    }
    const { meta: kept, secrets } = separateSecrets('gh', meta)
    expect(kept.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:gh/env/GITHUB_PERSONAL_ACCESS_TOKEN}',
      OPENAI_API_KEY: '${secret:gh/env/OPENAI_API_KEY}',
      DB_PASSWORD: '${secret:gh/env/DB_PASSWORD}',
      LOG_LEVEL: 'debug',
      GIT_AUTHOR_NAME: 'Ada',
      TOKEN_FILE: '/run/token',
      FROM_ENV: '${SOME_TOKEN}',
      SHAPED: '${secret:gh/env/SHAPED}',
      DATABASE_URL: '${secret:gh/env/DATABASE_URL}',
    })
    expect(kept.args).toEqual([
      '-y',
      'server',
      '--api-key',
      '${secret:gh/arg/3}',
      '--token=${secret:gh/arg/token}',
      '--verbose',
      '--port',
      '8080',
    ])
    expect(secrets).toMatchObject({
      'gh/arg/3': 'k-123',
      'gh/arg/token': 't-456',
      'gh/env/DB_PASSWORD': 'hunter2',
    })

    const http = separateSecrets('api', {
      url: 'https://mcp.example.com/mcp?api_key=xyz%2F1&region=eu',
      headers: { Authorization: 'Bearer abc', 'X-Trace': 'on', 'X-Api-Key': '${KEY}' },
    })
    expect(http.meta).toEqual({
      url: 'https://mcp.example.com/mcp?api_key=${secret:api/query/api_key}&region=eu',
      headers: {
        Authorization: '${secret:api/header/Authorization}',
        'X-Trace': 'on',
        'X-Api-Key': '${KEY}',
      },
    })
    expect(http.secrets).toEqual({ 'api/query/api_key': 'xyz%2F1', 'api/header/Authorization': 'Bearer abc' })
  })

  it('takes out any field it is told is secret, and nothing when there is none', () => {
    const forced = separateSecrets(
      'x',
      { command: 'srv', env: { REGION: 'eu' } },
      { force: new Set(['env.REGION']) },
    )
    expect(forced).toEqual({
      meta: { command: 'srv', env: { REGION: '${secret:x/env/REGION}' } },
      secrets: { 'x/env/REGION': 'eu' },
    })
    const none = separateSecrets('x', { command: 'srv', args: ['a'], env: { HOME_DIR: '/h' } })
    expect(none).toEqual({ meta: { command: 'srv', args: ['a'], env: { HOME_DIR: '/h' } }, secrets: {} })
  })

  it('the profile plus the store give back exactly what was separated, and no secret stays', () => {
    const names = fc.oneof(
      fc.constantFrom(
        'API_TOKEN',
        'PASSWORD',
        'SECRET',
        'AUTH',
        'LOG_LEVEL',
        'PORT',
        'MODE',
        'x-api-key',
        'Authorization',
      ),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}$/),
    )
    // Literal values (a profile writes `${` as `$${`), as an import writes them.
    const values = fc.string({ maxLength: 30 }).map((text) => text.replace(/\$\{/g, '$${'))
    const metas = fc.record(
      {
        command: fc.constant('srv'),
        args: fc.array(fc.oneof(values, fc.constantFrom('--token', '--api-key', '-v')), { maxLength: 6 }),
        env: fc.dictionary(names, values, { maxKeys: 6 }),
        headers: fc.dictionary(names, values, { maxKeys: 4 }),
      },
      { requiredKeys: ['command'] },
    )
    fc.assert(
      fc.property(metas, (meta) => {
        const { meta: kept, secrets } = separateSecrets('p', meta as ProfileMeta)
        expect(restore(kept, secrets)).toEqual(restore(meta as ProfileMeta, {}))
        const literal = (value: string) => value !== '' && !value.replace(/\$\$\{/g, '').includes('${')
        for (const [name, value] of Object.entries(meta.env ?? {}))
          if (isSecretName(name) && literal(value)) expect(kept.env?.[name]).toMatch(/^\$\{secret:/)
        for (const [name, value] of Object.entries(meta.headers ?? {}))
          if (isSecretHeader(name) && literal(value)) expect(kept.headers?.[name]).toMatch(/^\$\{secret:/)
        expect([...secretKeys(kept)].sort()).toEqual(Object.keys(secrets).sort())
      }),
      { numRuns: 300 },
    )
  })
})

describe('the secret store', () => {
  it('is one 0600 file; writes merge, undefined removes', async () => {
    const secretsPath = join(directory, 'config', 'mcp-kit', 'secrets.json')
    expect(await readSecrets({ secretsPath })).toEqual({})
    await writeSecrets({ 'a/env/T': 'one', 'b/env/T': 'two' }, { secretsPath })
    await writeSecrets({ 'a/env/T': undefined, 'c/header/Authorization': 'Bearer x' }, { secretsPath })
    expect(await readSecrets({ secretsPath })).toEqual({
      'b/env/T': 'two',
      'c/header/Authorization': 'Bearer x',
    })
    expect((await stat(secretsPath)).mode & 0o777).toBe(0o600)
    expect((await stat(join(directory, 'config', 'mcp-kit'))).mode & 0o777).toBe(0o700)
  })

  it('fills ${secret:KEY} when a profile is loaded, and names a missing one', async () => {
    const env = { XDG_CONFIG_HOME: join(directory, 'config'), HOME: directory, MCP_KIT_HOME: '' }
    const profiles = join(directory, 'config', 'mcp-kit', 'profiles')
    await mkdir(profiles, { recursive: true })
    await writeFile(
      join(profiles, 'notes.json'),
      JSON.stringify({
        command: 'srv',
        env: { API_TOKEN: '${secret:notes/env/API_TOKEN}', LITERAL: '$${secret:x}' },
      }),
    )
    await expect(loadProfile('notes', { env, cwd: directory })).rejects.toMatchObject({
      code: 'missing_secret',
      message: expect.stringMatching(
        /secret 'notes\/env\/API_TOKEN' is not in your secret store .*mcp-kit profile secret set notes\/env\/API_TOKEN/,
      ),
    })
    // An environment variable named like a secret is not one.
    await expect(
      loadProfile('notes', { env: { ...env, 'secret:notes/env/API_TOKEN': 'from-env' }, cwd: directory }),
    ).rejects.toMatchObject({
      code: 'missing_secret',
    })
    await writeSecrets({ 'notes/env/API_TOKEN': 'tok-1' }, { env })
    const profile = await loadProfile('notes', { env, cwd: directory })
    expect(profile.server).toMatchObject({ env: { API_TOKEN: 'tok-1', LITERAL: '${secret:x}' } })
    // Shown as written.
    expect((await loadProfile('notes', { env, cwd: directory, substitute: false })).meta.env).toEqual({
      API_TOKEN: '${secret:notes/env/API_TOKEN}',
      LITERAL: '$${secret:x}',
    })
  })
})

describe('project profiles', () => {
  it('get an ignore file for what is local; one the user wrote stays', async () => {
    const root = join(directory, 'project', '.mcp-kit')
    await writeProfile('a', { meta: { command: 'srv' }, tools: {} }, { root, scope: 'project' })
    expect(await readFile(join(root, '.gitignore'), 'utf8')).toBe(projectIgnore)
    expect(projectIgnore).toMatch(/^secrets\.json$/m)
    await writeFile(join(root, '.gitignore'), 'mine\n')
    await writeProfile('b', { meta: { command: 'srv' }, tools: {} }, { root, scope: 'project' })
    expect(await readFile(join(root, '.gitignore'), 'utf8')).toBe('mine\n')
    const user = join(directory, 'user')
    await writeProfile('c', { meta: { command: 'srv' }, tools: {} }, { root: user, scope: 'user' })
    await expect(stat(join(user, '.gitignore'))).rejects.toThrow()
  })
})

describe('translateConfigVariables', () => {
  it("writes VS Code's and Cursor's forms as profile variables and reports inputs", () => {
    const meta: ProfileMeta = {
      command: '${userHome}/bin/srv',
      args: ['${workspaceFolder}/data', '--key', '${input:api-key}'],
      env: { A: '${env:NOTES_HOME}', B: '${REGION:-eu}', C: 'x-${input:region}', D: '$${literal}' },
      headers: { Authorization: 'Bearer ${input:api-key}' },
    }
    const first = translateConfigVariables(meta, { workspaceFolder: '/work/project' })
    expect(first.meta).toEqual({
      command: '${HOME}/bin/srv',
      args: ['/work/project/data', '--key', '${input:api-key}'],
      env: { A: '${NOTES_HOME}', B: '${REGION:-eu}', C: 'x-${input:region}', D: '$${literal}' },
      headers: { Authorization: 'Bearer ${input:api-key}' },
    })
    expect(first.inputs).toEqual([
      { field: 'args[2]', id: 'api-key' },
      { field: 'env.C', id: 'region' },
      { field: 'headers.Authorization', id: 'api-key' },
    ])
    expect(first.unsupported).toEqual([])
    const answered = translateConfigVariables(meta, {
      workspaceFolder: '/work/project',
      inputs: { 'api-key': 'k${1}', region: 'us' },
    })
    expect(answered.meta.args?.[2]).toBe('k$${1}')
    expect(answered.meta.env?.C).toBe('x-us')
    expect(
      translateConfigVariables(
        { command: '${command:pick}', args: ['${config:x.y}'] },
        { workspaceFolder: '/' },
      ).unsupported,
    ).toEqual(['${command:pick}', '${config:x.y}'])
  })

  it('a project config belongs to the folder above .vscode or .cursor', () => {
    expect(workspaceFolderOf('.vscode/mcp.json', '/work/p')).toBe('/work/p')
    expect(workspaceFolderOf('/home/u/.cursor/mcp.json', '/work/p')).toBe('/home/u')
    expect(workspaceFolderOf('/etc/claude.json', '/work/p')).toBe('/work/p')
  })
})
