// `mcp-kit shell <ref>`: one connection, many commands. Type `<tool> key=value …` to call a tool
// (the arguments, coercion, validation and NDJSON records of `cat`), `read <uri>`, `prompt <name>
// key=value …`, `tools`, `resources`, `prompts`, `help [tool]`, `exit`. On a terminal: line
// editing, Tab completion of commands, tools, parameters and resource URIs from the live server
// and of a server question's choices, and a history kept between sessions. Ctrl-C cancels the
// running call; Ctrl-D or `exit` leaves. Read from a pipe it runs each line and exits with the
// code of the last command that failed.

import { createInterface, type Interface } from 'node:readline'
import type { Session, Tool } from '@mcp-kit/client'
import type { ResolvedReference } from '@mcp-kit/profiles'
import { CliError, isKitError } from '../../base/errors.js'
import { exitCodeFor, exitCodes } from '../../base/exit-codes.js'
import { type Io, useColor, writeLine } from '../../base/io.js'
import { splitWords } from '../../base/shell-words.js'
import { diagnostics, writeDiagnostic } from '../../output/diagnostics.js'
import { errorRecord, promptRecords, resourceRecords } from '../../output/records.js'
import { firstLine, sanitizeLine } from '../../output/sanitize.js'
import { createStatus, type Status } from '../../output/status.js'
import { createStyle } from '../../output/style.js'
import { writeJson, writeRecords } from '../../output/write-records.js'
import { samplingChoice } from '../../sampling/sampling-choice.js'
import {
  parseJsonArguments,
  parseKeyValues,
  prepareArguments,
  stringifyPromptArguments,
} from '../../session/call-arguments.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { createInputHandler } from '../../session/input-handler.js'
import { openSession, serverReference } from '../../session/open-session.js'
import { resolveForCli } from '../../session/reference.js'
import { checkProfileSchema } from '../../session/schema-check.js'
import { suggest } from '../../session/tool-arguments.js'
import { callToolOutcome, messageOnlyErrors } from '../shared/call-tool.js'
import { createCompleter, type ListCache } from './shell-completion.js'
import { listText, shellHelp, toolHelpText } from './shell-help.js'
import { historyPath, historySize, loadHistory, rememberLine } from './shell-history.js'
import { shellQuestions } from './shell-questions.js'

export interface ShellArguments extends ConnectionArguments {
  reference: string
  'raw-strings'?: boolean
  validate?: boolean
  raw?: boolean
  history?: boolean
}

/** What ended a command: keep going, or leave the shell with this code. */
type Next = { exitCode: number; leave?: boolean }

export async function runShell(args: ShellArguments, io: Io): Promise<number> {
  const resolved = await resolveForCli(args.reference, io)
  if (resolved.operation.kind !== 'inspect' && resolved.operation.kind !== 'listTools') {
    throw new CliError(
      'usage',
      `mcp-kit shell takes a server (${serverReference(resolved)}), not an operation; call tools inside the shell`,
    )
  }
  const interactive = (io.stdin as { isTTY?: boolean }).isTTY === true
  const say = diagnostics(io, args)
  const status = createStatus(io, args.quiet)
  let lines: Interface | undefined
  const stopReading = () => lines?.close()
  let running: AbortController | undefined
  // Questions from the server are asked through this shell's own line editor.
  const questions = shellQuestions(() => lines)
  const input = createInputHandler(
    args,
    io,
    (given) => {
      if (!lines || !interactive) return undefined
      status.clear()
      return {
        ask: (question, options) =>
          questions.ask(question, AbortSignal.any([running?.signal ?? io.signal, given]), options?.choices),
        close: () => {},
      }
    },
    samplingChoice(args, resolved.profile),
  )
  const { describeServer } = await import('@mcp-kit/profiles')
  status.update(`connecting to ${describeServer(resolved.server)}…`)
  let session: Session
  try {
    session = await openSession(resolved, args, io, { input })
  } finally {
    status.clear()
  }
  try {
    await checkProfileSchema(resolved, await session.listTools(), say)
    const prompt = `${sanitizeLine(serverReference(resolved).startsWith('@') ? serverReference(resolved) : session.serverInfo.name)}> `
    if (interactive && !args.quiet) {
      const tools = await session.listTools()
      const style = createStyle(useColor(io, 'stderr'))
      io.stderr.write(
        `${style.bold(sanitizeLine(session.serverInfo.name))} ${sanitizeLine(session.serverInfo.version ?? '')} — ${tools.length} tool${tools.length === 1 ? '' : 's'}. Type ${style.bold('help')} for commands, Tab to complete, ${style.bold('exit')} to leave.\n`,
      )
    }
    const shell = createShell(resolved, session, args, io, status)
    const history = args.history === false || !interactive ? undefined : historyPath(io.env)
    lines = createInterface({
      input: io.stdin,
      output: io.stderr,
      terminal: interactive,
      prompt,
      completer: interactive
        ? (line: string, callback: Parameters<typeof shell.completer>[1]) => {
            const answer = questions.complete(line)
            if (answer === undefined) shell.completer(line, callback)
            else callback(null, answer)
          }
        : undefined,
      history: history === undefined ? [] : loadHistory(history),
      historySize,
      removeHistoryDuplicates: true,
    })
    // Interrupted (SIGINT from outside a terminal, SIGTERM): stop reading, whatever comes next.
    io.signal.addEventListener('abort', stopReading, { once: true })
    lines.on('SIGINT', () => {
      if (running) {
        running.abort(new Error('cancelled by Ctrl-C'))
        return
      }
      // Ctrl-C at the prompt: drop the line, as shells do.
      io.stderr.write('^C\n')
      lines?.write(null, { ctrl: true, name: 'u' })
      lines?.prompt()
    })
    let lastFailure: number = exitCodes.ok
    if (interactive) lines.prompt()
    for await (const line of lines) {
      if (history !== undefined) rememberLine(history, line)
      running = new AbortController()
      let next: Next
      try {
        next = await shell.run(line, running.signal)
      } finally {
        running = undefined
      }
      if (next.exitCode !== exitCodes.ok) lastFailure = next.exitCode
      if (next.leave || io.signal.aborted) break
      if (interactive) lines.prompt()
    }
    lines.close()
    if (io.signal.aborted) return exitCodes.interrupted
    if (!interactive) return lastFailure
    io.stderr.write('\n')
    return exitCodes.ok
  } finally {
    io.signal.removeEventListener('abort', stopReading)
    lines?.close()
    await session.close()
  }
}

function createShell(
  resolved: ResolvedReference,
  session: Session,
  args: ShellArguments,
  io: Io,
  status: Status,
) {
  const say = diagnostics(io, args)
  const lists: ListCache = {}

  async function findTool(name: string): Promise<Tool> {
    const tools = await session.listTools()
    const tool = tools.find((candidate) => candidate.name === name)
    if (tool) return tool
    const close = suggest(
      name,
      tools.map((candidate) => candidate.name),
    )
    throw new CliError(
      'tool_not_found',
      `no command or tool '${name}'${close.length > 0 ? `; did you mean ${close.map((candidate) => `'${candidate}'`).join(' or ')}?` : "; 'tools' lists the tools, 'help' the commands"}`,
    )
  }

  /** A profile's entry for the tool: its real name (aliases) and its argument defaults. */
  async function profileEntry(name: string): Promise<{ name: string; defaults?: Record<string, unknown> }> {
    if (resolved.reference.type !== 'profile') return { name }
    try {
      const entry = await resolveForCli(`@${resolved.reference.profile}/${name}`, io)
      if (entry.operation.kind === 'callTool')
        return { name: entry.operation.name, defaults: entry.operation.defaults }
    } catch {
      // Not a name the profile knows: the server's own name.
    }
    return { name }
  }

  async function callTool(name: string, words: string[], signal: AbortSignal): Promise<Next> {
    const entry = await profileEntry(name)
    const tool = await findTool(entry.name)
    const json = words.filter((word) => word.startsWith('{'))
    if (json.length > 1)
      throw new CliError('usage', 'give the arguments as key=value words or one {json} word')
    const validate = args.validate !== false
    const callArguments = await prepareArguments(
      tool.name,
      {
        defaults: entry.defaults,
        query: {},
        json: parseJsonArguments(json[0]),
        keyValues: parseKeyValues(words.filter((word) => !word.startsWith('{'))),
      },
      tool.inputSchema,
      { rawStrings: args['raw-strings'] === true, validate, warn: say.warn },
    )
    const outcome = await callToolOutcome(session, tool.name, callArguments, status, signal)
    if (args.raw) await writeJson(io, outcome.raw)
    else await writeRecords(io, outcome.records)
    if (!outcome.failed) return { exitCode: exitCodes.ok }
    const message = (outcome.records[0]?.error as { message?: string } | undefined)?.message
    if (!args.quiet)
      writeDiagnostic(io, `the tool reported an error${message ? `: ${firstLine(message)}` : ''}`)
    return { exitCode: exitCodes.failed }
  }

  async function readResource(words: string[], signal: AbortSignal): Promise<Next> {
    const [uri, ...rest] = words
    if (uri === undefined || rest.length > 0) throw new CliError('usage', 'read takes one resource URI')
    const result = await session.readResource(uri, { signal })
    if (args.raw) await writeJson(io, result)
    else await writeRecords(io, resourceRecords(result))
    return { exitCode: exitCodes.ok }
  }

  async function getPrompt(words: string[], signal: AbortSignal): Promise<Next> {
    const [name, ...rest] = words
    if (name === undefined)
      throw new CliError('usage', 'prompt takes a prompt name, then key=value arguments')
    const values = parseKeyValues(rest)
    const result = await session.getPrompt(name, stringifyPromptArguments(values), { signal })
    if (args.raw) await writeJson(io, result)
    else await writeRecords(io, promptRecords(result))
    return { exitCode: exitCodes.ok }
  }

  async function list(what: 'tools' | 'resources' | 'templates' | 'prompts'): Promise<Next> {
    const rows: Array<[string, string | undefined]> = []
    if (what === 'tools') {
      session.invalidateTools()
      for (const tool of await session.listTools()) rows.push([tool.name, tool.description ?? tool.title])
    } else if (what === 'resources') {
      lists.resources = session.listResources()
      for (const resource of await lists.resources) rows.push([resource.uri, resource.name])
    } else if (what === 'templates') {
      for (const template of await session.listResourceTemplates())
        rows.push([template.uriTemplate, template.name])
    } else {
      lists.prompts = session.listPrompts()
      for (const prompt of await lists.prompts) rows.push([prompt.name, prompt.description ?? prompt.title])
    }
    await writeLine(io.stdout, listText(what, rows))
    return { exitCode: exitCodes.ok }
  }

  async function toolHelp(name: string): Promise<Next> {
    const tool = await findTool((await profileEntry(name)).name)
    await writeLine(io.stdout, toolHelpText(tool))
    return { exitCode: exitCodes.ok }
  }

  /** Runs one line. Errors become messages (and, for failed calls, records): the shell goes on. */
  async function run(line: string, signal: AbortSignal): Promise<Next> {
    try {
      const words = splitWords(line)
      const [command, ...rest] = words
      switch (command) {
        case undefined:
          return { exitCode: exitCodes.ok }
        case 'exit':
        case 'quit':
          return { exitCode: exitCodes.ok, leave: true }
        case 'help':
          if (rest[0] !== undefined) return await toolHelp(rest[0])
          await writeLine(io.stdout, shellHelp)
          return { exitCode: exitCodes.ok }
        case 'tools':
        case 'resources':
        case 'templates':
        case 'prompts':
          return await list(command)
        case 'read':
          return await readResource(rest, signal)
        case 'prompt':
          return await getPrompt(rest, signal)
        case 'call': {
          const [tool, ...toolWords] = rest
          if (tool === undefined)
            throw new CliError('usage', 'call takes a tool name, then key=value arguments')
          return await callTool(tool, toolWords, signal)
        }
        default:
          return await callTool(command, rest, signal)
      }
    } catch (error) {
      status.clear()
      const code = isKitError(error) ? error.code : 'internal'
      const message = signal.aborted ? 'cancelled' : isKitError(error) ? error.message : String(error)
      if (isKitError(error) && !messageOnlyErrors.includes(code) && !signal.aborted)
        await writeRecords(io, [errorRecord(error)])
      writeDiagnostic(io, message)
      // The connection is gone: nothing more can work.
      const lost = ['server_exited', 'connect_failed'].includes(code)
      return { exitCode: signal.aborted ? exitCodes.interrupted : exitCodeFor(code), leave: lost }
    }
  }

  return { run, completer: createCompleter(session, lists) }
}
