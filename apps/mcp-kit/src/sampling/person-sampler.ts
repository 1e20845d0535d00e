// Sampling answered by the person at the terminal (--sampling-ask): the request is shown on
// stderr — the system prompt, every message, the limits, the tools offered — with everything
// the server wrote sanitized, and the answer is typed line by line until a line holding only
// ".". Plain text is the answer; a JSON result (with `content`) can call a tool; nothing declines.
// The prompt is the CLI's terminal, the shell's line editor or, in the warm-session daemon, the
// terminal of the command that asked.

import type { InputContext, SamplingRequest, SamplingResult } from '@mcp-kit/client'
import { CliError } from '../base/errors.js'
import type { Io } from '../base/io.js'
import { clip, sanitizeLine, sanitizeText } from '../output/sanitize.js'
import { parseAnswer } from './sampling-answer.js'

/** A prompt to read the answer with; undefined when there is no terminal. */
export type OpenAnswerPrompt = (
  signal: AbortSignal,
) => { ask(question: string): Promise<string>; close(): void } | undefined

type Block = Record<string, unknown>

function size(data: unknown): string {
  const bytes = typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KiB`
}

function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return sanitizeText(String(block.text ?? '')).replace(/\n/g, '\n    ')
    case 'image':
    case 'audio':
      return `(${block.type}, ${sanitizeLine(String(block.mimeType ?? '?'))}, ${size(block.data)})`
    case 'tool_use':
      return `(calls ${sanitizeLine(String(block.name ?? '?'))} ${clip(JSON.stringify(block.input ?? {}), 200)}, id ${sanitizeLine(String(block.id ?? '?'))})`
    case 'tool_result': {
      const parts = (Array.isArray(block.content) ? block.content : []) as Block[]
      const text = parts
        .map((part) => (part.type === 'text' ? String(part.text ?? '') : `(${String(part.type)})`))
        .join(' ')
      return `(${block.isError === true ? 'error' : 'result'} of ${sanitizeLine(String(block.toolUseId ?? '?'))}: ${clip(text, 300)})`
    }
    default:
      return `(a ${sanitizeLine(String(block.type))} block)`
  }
}

/** The request as the person reads it, one line per item. */
export function describeRequest(request: SamplingRequest, during: string | undefined): string[] {
  const lines = [
    `the server asks for a model completion (sampling)${during ? ` during ${sanitizeLine(during)}` : ''}:`,
  ]
  if (request.systemPrompt)
    lines.push(`  system prompt: ${sanitizeText(request.systemPrompt).replace(/\n/g, '\n    ')}`)
  for (const message of request.messages ?? []) {
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as Block[]
    for (const block of blocks)
      lines.push(`  [${sanitizeLine(String(message.role))}] ${describeBlock(block)}`)
  }
  const limits = [`at most ${Number(request.maxTokens)} tokens`]
  if (typeof request.temperature === 'number') limits.push(`temperature ${request.temperature}`)
  if (request.stopSequences?.length)
    limits.push(
      `stop at ${request.stopSequences.map((stop) => JSON.stringify(sanitizeLine(stop))).join(', ')}`,
    )
  const hints = request.modelPreferences?.hints?.flatMap((hint) =>
    hint.name ? [sanitizeLine(hint.name)] : [],
  )
  if (hints?.length) limits.push(`model hints: ${hints.join(', ')}`)
  lines.push(`  ${limits.join('; ')}`)
  const tools = (request as { tools?: Block[] }).tools
  if (Array.isArray(tools) && tools.length > 0) {
    const choice = (request as { toolChoice?: { mode?: string } }).toolChoice?.mode
    lines.push(`  tools offered${choice ? ` (tool choice: ${sanitizeLine(choice)})` : ''}:`)
    for (const tool of tools)
      lines.push(
        `    ${sanitizeLine(String(tool.name))}${tool.description ? ` — ${clip(String(tool.description), 120)}` : ''}`,
      )
  }
  if (request.includeContext !== undefined && request.includeContext !== 'none')
    lines.push(
      `  (it asks to include context from ${sanitizeLine(request.includeContext)}; mcp-kit includes none)`,
    )
  return lines
}

export function personSampler(
  io: Io,
  openPrompt: OpenAnswerPrompt,
): (request: SamplingRequest, context: InputContext) => Promise<SamplingResult> {
  return async (request, context) => {
    const prompt = openPrompt(context.signal)
    if (prompt === undefined) {
      const { ClientError } = await import('@mcp-kit/client')
      throw new ClientError(
        'input_required',
        `the server asks for a model completion (sampling)${context.during ? ` during ${sanitizeLine(context.during)}` : ''}, and --sampling-ask needs a terminal: run it on one, or answer with --sampling-command or --sampling-url`,
        { details: { method: 'sampling/createMessage' } },
      )
    }
    try {
      const tools = (request as { tools?: unknown[] }).tools
      io.stderr.write(
        `mcp-kit: ${describeRequest(request, context.during).join('\n')}\n` +
          `Type the answer, then a line with only "." to send it${Array.isArray(tools) && tools.length > 0 ? ' (to call a tool, type a JSON result: {"content": [{"type": "tool_use", "id": "1", "name": "…", "input": {…}}]})' : ''}; "." alone declines.\n`,
      )
      const lines: string[] = []
      for (;;) {
        const line = await prompt.ask('> ')
        if (line === '.') break
        lines.push(line)
      }
      const text = lines.join('\n')
      if (text.trim() === '')
        throw new CliError('sampling_declined', 'the sampling request was declined at the terminal', {
          details: { rpcCode: -1 },
        })
      return parseAnswer(text, request, 'human')
    } finally {
      prompt.close()
    }
  }
}
