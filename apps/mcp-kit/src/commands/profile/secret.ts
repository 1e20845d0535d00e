// `mcp-kit profile secret set|list|remove`: the user's secret store, which profiles refer to as
// `${secret:KEY}`. Values are typed without echo on a terminal or read from stdin, never taken
// from the command line (other users can see it), and never printed.

import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, writeLine } from '../../base/io.js'
import { openTerminalPrompt } from '../../base/terminal-prompt.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { profileOptions } from '../../session/reference.js'

export interface SecretArguments {
  key?: string
  format?: 'text' | 'json'
}

function checkKey(key: string | undefined): string {
  if (key === undefined || !/^[A-Za-z0-9._/-]+$/.test(key)) {
    throw new CliError(
      'usage',
      `secret keys are letters, digits, '.', '_', '-' and '/' (like github/env/GITHUB_TOKEN), not ${JSON.stringify(key)}`,
    )
  }
  return key
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream)
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
  return text
}

export async function runSecretSet(args: SecretArguments, io: Io): Promise<number> {
  const key = checkKey(args.key)
  const { writeSecrets } = await import('@mcp-kit/profiles')
  let value: string
  const prompt = (io.stdin as NodeJS.ReadStream).isTTY ? openTerminalPrompt(io) : undefined
  if (prompt) {
    try {
      value = await prompt.ask(`value of ${key} (not shown): `, { hidden: true })
    } finally {
      prompt.close()
    }
  } else {
    value = (await readAll(io.stdin)).replace(/\r?\n$/, '')
  }
  if (value === '')
    throw new CliError('usage', `no value given for ${key} (type it on a terminal, or pipe it in)`)
  const path = await writeSecrets({ [key]: value }, { env: io.env })
  writeDiagnostic(io, `saved secret ${key} in ${path}`)
  return exitCodes.ok
}

export async function runSecretRemove(args: SecretArguments, io: Io): Promise<number> {
  const key = checkKey(args.key)
  const { readSecrets, writeSecrets } = await import('@mcp-kit/profiles')
  if (!Object.hasOwn(await readSecrets({ env: io.env }), key)) {
    throw new CliError('usage', `there is no secret ${key} in the secret store`)
  }
  const path = await writeSecrets({ [key]: undefined }, { env: io.env })
  writeDiagnostic(io, `removed secret ${key} from ${path}`)
  return exitCodes.ok
}

/** The keys (never the values) and the profiles that refer to each. */
export async function runSecretList(args: SecretArguments, io: Io): Promise<number> {
  const { listProfiles, loadProfile, loadProfileDocument, readSecrets, secretKeys, secretsPath } =
    await import('@mcp-kit/profiles')
  const stored = Object.keys(await readSecrets({ env: io.env }))
  const usedBy = new Map<string, string[]>()
  const options = { ...profileOptions(io), substitute: false }
  for (const summary of await listProfiles(options)) {
    if (!summary.active) continue
    try {
      const document = await loadProfileDocument(await loadProfile(summary.name, options), options)
      for (const key of secretKeys(document))
        usedBy.set(key, [...(usedBy.get(key) ?? []), `@${summary.name}`])
    } catch {
      // A broken profile refers to nothing we can see; `profile info` says what is wrong with it.
    }
  }
  const keys = [...new Set([...stored, ...usedBy.keys()])].sort()
  const rows = keys.map((key) => ({
    key,
    stored: stored.includes(key),
    profiles: usedBy.get(key) ?? [],
  }))
  if (args.format === 'json') {
    await writeLine(io.stdout, JSON.stringify({ store: secretsPath(io.env), secrets: rows }, null, 2))
    return exitCodes.ok
  }
  if (rows.length === 0) {
    await writeLine(io.stdout, `no secrets (${secretsPath(io.env)})`)
    return exitCodes.ok
  }
  const width = Math.max(...rows.map((row) => row.key.length))
  const lines = rows.map(
    (row) =>
      `${row.key.padEnd(width)}  ${row.stored ? 'stored ' : 'MISSING'}  ${row.profiles.length > 0 ? row.profiles.join(', ') : '(no profile uses it)'}`,
  )
  await writeLine(io.stdout, lines.join('\n'))
  return exitCodes.ok
}
