// `mcp-kit profile import [file]`: the server lists of other MCP clients' configs as profiles.

import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ConfigInput, ProfileMeta } from '@mcp-kit/profiles'
import { CliError } from '../../base/errors.js'
import { exitCodes } from '../../base/exit-codes.js'
import { type Io, writeLine } from '../../base/io.js'
import { openTerminalPrompt, type TerminalPrompt } from '../../base/terminal-prompt.js'
import { writeDiagnostic } from '../../output/diagnostics.js'
import { sanitizeLine } from '../../output/sanitize.js'
import { writeRoot } from '../shared/profile/locations.js'

export interface ImportArguments {
  file?: string
  only?: string[]
  discover?: boolean
  project?: boolean
  force?: boolean
  quiet?: boolean
}

/** A server the import could not write: which input it needed and nobody could give. */
interface Refused {
  server: string
  file: string
  input: string
  description: string | undefined
}

/**
 * The answers to a config's `${input:ID}` questions, asked once each on the terminal (a password
 * input without echo). Undefined when there is no terminal to ask on.
 */
function inputAsker(io: Io) {
  const answers = new Map<string, string>()
  let prompt: TerminalPrompt | undefined
  let opened = false
  return {
    async answer(
      file: string,
      server: string,
      id: string,
      input: ConfigInput | undefined,
    ): Promise<string | undefined> {
      const key = `${file}\0${id}`
      const known = answers.get(key)
      if (known !== undefined) return known
      if (!opened) {
        opened = true
        prompt = openTerminalPrompt(io)
      }
      if (!prompt) return undefined
      const about = input?.description ? ` — ${sanitizeLine(input.description)}` : ''
      const fallback =
        input?.default !== undefined && !input.password ? ` [${sanitizeLine(input.default)}]` : ''
      const hidden = input?.password === true
      const text = await prompt.ask(
        `${sanitizeLine(server)} asks for input '${sanitizeLine(id)}'${about}${hidden ? ' (not shown)' : ''}${fallback}: `,
        { hidden },
      )
      const value = text === '' && input?.default !== undefined ? input.default : text
      answers.set(key, value)
      return value
    },
    close: () => prompt?.close(),
  }
}

export async function runProfileImport(args: ImportArguments, io: Io): Promise<number> {
  const { clientConfigLocations, parseClientConfig, separateSecrets, writeProfile, writeSecrets } =
    await import('@mcp-kit/profiles')
  const { translateConfigVariables, workspaceFolderOf } = await import('@mcp-kit/profiles/internal')
  let files: Array<{ client: string; path: string }>
  if (args.discover) {
    const candidates = clientConfigLocations({ env: io.env, cwd: io.cwd })
    files = []
    for (const candidate of candidates) {
      if (
        await readFile(candidate.path).then(
          () => true,
          () => false,
        )
      )
        files.push(candidate)
    }
    if (files.length === 0) {
      await writeLine(
        io.stdout,
        `no MCP client configs found; looked at:\n  ${candidates.map((candidate) => `${candidate.path} (${candidate.client})`).join('\n  ')}`,
      )
      return exitCodes.ok
    }
  } else if (args.file) {
    files = [{ client: 'config', path: resolve(io.cwd, args.file) }]
  } else {
    throw new CliError('usage', 'say which file to import, or use --discover')
  }
  const { root, scope } = await writeRoot(io, args.project)
  const wanted = new Set(args.only ?? [])
  const found = new Set<string>()
  const imported: string[] = []
  const skipped: string[] = []
  const refused: Refused[] = []
  const secrets: Record<string, string> = {}
  const asker = inputAsker(io)
  try {
    for (const file of files) {
      let text: string
      try {
        text = await readFile(file.path, 'utf8')
      } catch (error) {
        throw new CliError(
          'usage',
          `cannot read ${file.path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
        )
      }
      const config = parseClientConfig(text, file.path, { cwd: io.cwd })
      const workspaceFolder = workspaceFolderOf(file.path, io.cwd)
      for (const entry of config.skipped) skipped.push(`${entry.name} in ${file.path} (${entry.reason})`)
      servers: for (const server of config.servers) {
        if (wanted.size > 0 && !wanted.has(server.name) && !wanted.has(server.sourceName)) continue
        found.add(server.name).add(server.sourceName)
        if (imported.includes(server.name)) {
          skipped.push(`${server.sourceName} in ${file.path} (imported from an earlier file)`)
          continue
        }
        // Other clients' ${…} forms in profile syntax; ${input:…} asked for (or refused).
        const first = translateConfigVariables(server.meta, { workspaceFolder })
        if (first.unsupported.length > 0) {
          skipped.push(
            `${server.sourceName} in ${file.path} (uses ${first.unsupported.join(', ')}, which mcp-kit cannot fill in)`,
          )
          continue
        }
        const answers: Record<string, string> = {}
        for (const { id } of first.inputs) {
          if (Object.hasOwn(answers, id)) continue
          const answer = await asker.answer(file.path, server.sourceName, id, config.inputs[id])
          if (answer === undefined) {
            refused.push({
              server: server.sourceName,
              file: file.path,
              input: id,
              description: config.inputs[id]?.description,
            })
            continue servers
          }
          answers[id] = answer
        }
        const translated = translateConfigVariables(server.meta, { workspaceFolder, inputs: answers })
        // A password input is a secret wherever it goes.
        const force = new Set(
          translated.inputs
            .filter(({ id }) => config.inputs[id]?.password === true)
            .map(({ field }) => field),
        )
        const separated = separateSecrets(server.name, translated.meta, { force })
        const meta: ProfileMeta = {
          description: `Imported from ${file.client} (${file.path})`,
          ...separated.meta,
        }
        try {
          await writeProfile(server.name, { meta, tools: {} }, { root, scope, force: args.force })
          imported.push(server.name)
          Object.assign(secrets, separated.secrets)
        } catch (error) {
          if (!(error as { message?: string }).message?.includes('already exists')) throw error
          skipped.push(`${server.name} (already exists; --force to replace it)`)
        }
      }
    }
  } finally {
    asker.close()
  }
  const missing = [...wanted].filter((name) => !found.has(name))
  if (missing.length > 0)
    throw new CliError('usage', `not in ${files.map((file) => file.path).join(', ')}: ${missing.join(', ')}`)
  const keys = Object.keys(secrets)
  const store = keys.length > 0 ? await writeSecrets(secrets, { env: io.env }) : undefined
  await writeLine(
    io.stdout,
    imported.length > 0
      ? `imported ${imported.map((name) => `@${name}`).join(', ')} into ${root}`
      : 'nothing imported',
  )
  if (store !== undefined && !args.quiet) {
    writeDiagnostic(
      io,
      `kept ${keys.length === 1 ? 'a secret' : `${keys.length} secrets`} out of the profiles, in ${store} (yours only): ${keys.join(', ')}`,
    )
  }
  if (skipped.length > 0 && !args.quiet) writeDiagnostic(io, `skipped ${skipped.join('; ')}`)
  if (refused.length > 0) {
    for (const { server, file, input, description } of refused) {
      writeDiagnostic(
        io,
        `not imported: ${server} (${file}) needs input '${input}'${description ? ` (${description})` : ''}, and there is no terminal to ask on; run the import on a terminal`,
      )
    }
    return exitCodes.inputRequired
  }
  return exitCodes.ok
}

/** `--save <name>` on inspect and cat: the naked reference just used, saved as a profile. */
