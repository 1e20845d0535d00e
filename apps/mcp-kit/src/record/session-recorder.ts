// Recording a command's session: the session the command uses is wrapped so that each tool
// call, resource read and prompt get (and the list the command asked for) is kept with its
// arguments, the answers given to the server's questions during it, and what came back — the
// client's own results, not the wire. Calls go to the `--record` file when the session closes,
// or at once to the spool of the `mcp-kit record` this command runs under.

import { appendFileSync } from 'node:fs'
import type { CallOptions, InputHandler, ListOptions, Session, Tool } from '@mcp-kit/client'
import type { Answers, ListKind, Operation, RecordedCall } from '@mcp-kit/collections'
import type { ResolvedReference } from '@mcp-kit/profiles'
import type { Io } from '../base/io.js'
import { diagnostics } from '../output/diagnostics.js'
import type { RecordingTarget } from './record-flag.js'
import { type RecordedServer, recordedServer } from './server-entry.js'
import { writeRecording } from './write-recording.js'

interface InFlight {
  name: string
  answers?: Answers
}

export interface Recorder {
  /** The session's question handler, watched for the answers it gives. */
  input(handler: InputHandler): InputHandler
  /** The session the command uses instead of `session`. */
  wrap(session: Session): Session
}

function parseFlags(values: readonly string[] | undefined, separator: string): Record<string, string> {
  const result: Record<string, string> = {}
  for (const value of values ?? []) {
    const at = value.indexOf(separator)
    if (at > 0) result[value.slice(0, at).trim()] = value.slice(at + 1).trim()
  }
  return result
}

export function startRecording(
  target: RecordingTarget,
  resolved: ResolvedReference,
  args: { env?: string[]; header?: string[]; verbose?: boolean; quiet?: boolean },
  io: Io,
): Recorder {
  const calls: RecordedCall[] = []
  const inFlight: InFlight[] = []
  let server: RecordedServer | undefined
  let tools: readonly Tool[] | undefined
  let toolsSent = false
  const say = diagnostics(io, args)

  const keep = (call: RecordedCall) => {
    if (target.kind === 'file') calls.push(call)
    else appendFileSync(target.path, `${JSON.stringify(call)}\n`)
  }

  async function observe<T>(
    session: Session,
    operation: Operation,
    callArguments: Record<string, unknown> | undefined,
    run: (flight: InFlight) => Promise<T>,
    options: { task?: boolean; becameTask?: () => boolean } = {},
  ): Promise<T> {
    const { observationOf } = await import('@mcp-kit/collections')
    server ??= await recordedServer(
      resolved,
      session.serverInfo.name,
      { env: parseFlags(args.env, '='), headers: parseFlags(args.header, ':') },
      io.cwd,
    )
    const flight: InFlight = { name: operation.kind === 'call' ? operation.name : '' }
    inFlight.push(flight)
    const started = performance.now()
    let outcome: { result: unknown } | { error: unknown }
    try {
      outcome = { result: await run(flight) }
    } catch (error) {
      outcome = { error }
    } finally {
      inFlight.splice(inFlight.indexOf(flight), 1)
    }
    const latency = performance.now() - started
    if (operation.kind === 'call' && tools === undefined)
      tools = await session.listTools().catch(() => undefined)
    const call: RecordedCall = {
      server: { name: server.name, entry: server.entry },
      operation,
      ...(callArguments === undefined ? {} : { arguments: callArguments }),
      ...(flight.answers === undefined ? {} : { answers: flight.answers }),
      ...(options.task ? { task: true } : {}),
      observation: observationOf(outcome, latency, options.becameTask?.() ?? false),
      ...(tools !== undefined && !toolsSent ? { tools } : {}),
    }
    if (call.tools !== undefined) toolsSent = target.kind === 'spool'
    try {
      keep(call)
    } catch (error) {
      say.warn(`cannot record to ${target.path}: ${(error as Error).message}`)
    }
    if ('error' in outcome) throw outcome.error
    return outcome.result as T
  }

  return {
    input(handler) {
      if (handler.elicit === undefined) return handler
      const elicit = handler.elicit.bind(handler)
      return {
        ...handler,
        elicit: async (request, context) => {
          const answer = await elicit(request, context)
          // The call it was asked during: the one in flight, or the one its request names.
          const flight =
            inFlight.length === 1
              ? inFlight[0]
              : inFlight.find((candidate) => context.during?.includes(`'${candidate.name}'`))
          if (flight !== undefined)
            flight.answers =
              answer.action === 'accept' && answer.content !== undefined
                ? { ...(typeof flight.answers === 'object' ? flight.answers : {}), ...answer.content }
                : answer.action
          return answer
        },
      }
    },
    wrap(session) {
      const listed = resolved.operation.kind
      const listField = {
        tools: 'tools',
        resources: 'resources',
        templates: 'resourceTemplates',
        prompts: 'prompts',
      }
      /** A list, observed as `{tools: […]}` and the like (what a `list:` step's result is). */
      const list = async <T>(kind: ListKind, run: () => Promise<T[]>): Promise<T[]> => {
        const field = listField[kind]
        const result = await observe(session, { kind: 'list', list: kind }, undefined, async () => ({
          [field]: await run(),
        }))
        return result[field] as T[]
      }
      const wrapped = {
        callTool: (name: string, callArguments: Record<string, unknown> = {}, options: CallOptions = {}) => {
          let becameTask = false
          return observe(
            session,
            { kind: 'call', name },
            callArguments,
            () =>
              session.callTool(name, callArguments, {
                ...options,
                onTask: (task) => {
                  becameTask = true
                  options.onTask?.(task)
                },
              }),
            { task: options.preferTask === true, becameTask: () => becameTask },
          )
        },
        readResource: (uri: string, options: CallOptions = {}) =>
          observe(session, { kind: 'read', uri }, undefined, () => session.readResource(uri, options)),
        getPrompt: (name: string, promptArguments: Record<string, string> = {}, options: CallOptions = {}) =>
          observe(session, { kind: 'prompt', name }, promptArguments, () =>
            session.getPrompt(name, promptArguments, options),
          ),
        // A list is recorded when it is what the command was asked for (`cat --list …`), not when
        // the command looks up a tool's schema.
        ...(listed === 'listResources'
          ? {
              listResources: (options?: ListOptions) =>
                list('resources', () => session.listResources(options)),
            }
          : {}),
        ...(listed === 'listPrompts'
          ? { listPrompts: (options?: ListOptions) => list('prompts', () => session.listPrompts(options)) }
          : {}),
        ...(listed === 'listResourceTemplates'
          ? {
              listResourceTemplates: (options?: ListOptions) =>
                list('templates', () => session.listResourceTemplates(options)),
            }
          : {}),
        ...(listed === 'listTools' ? { listTools: () => list('tools', () => session.listTools()) } : {}),
        close: async () => {
          try {
            await session.close()
          } finally {
            if (target.kind === 'file' && calls.length > 0) {
              const written = await writeRecording(target.path, calls, io)
              if (!args.quiet) io.stderr.write(`mcp-kit: ${written.summary}\n`)
            }
          }
        },
      }
      return new Proxy(session, {
        get(object, property) {
          if (Object.hasOwn(wrapped, property)) return wrapped[property as keyof typeof wrapped]
          const value = Reflect.get(object, property, object)
          return typeof value === 'function' ? value.bind(object) : value
        },
      })
    },
  }
}
