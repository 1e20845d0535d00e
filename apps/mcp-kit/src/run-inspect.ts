// `mcp-kit inspect <ref>`: everything a server offers, for people (text) or scripts (JSON).

import { type ConnectionArguments, diagnostics, openSession } from './connection.js'
import { collectInspectDocument } from './inspect-document.js'
import { type Io, useColor, write } from './io.js'
import { resolveForCli } from './reference.js'
import { createStyle, renderInspect } from './render-inspect.js'
import { checkProfileSchema } from './schema-check.js'

export interface InspectArguments extends ConnectionArguments {
  reference: string
  format: 'text' | 'json'
  save?: string
}

export async function runInspect(args: InspectArguments, io: Io): Promise<number> {
  const resolved = await resolveForCli(args.reference, io)
  const { describeServer } = await import('@mcp-kit/profiles')
  const session = await openSession(resolved, args, io)
  try {
    const document = await collectInspectDocument(session, args.reference, describeServer(resolved.server))
    await checkProfileSchema(resolved, document.tools, diagnostics(io, args))
    if (args.save !== undefined) {
      const { saveUsedReference } = await import('./run-profile.js')
      await saveUsedReference(args.save, resolved, document.tools, args, io, args.reference)
    }
    const text =
      args.format === 'json'
        ? `${JSON.stringify(document, null, 2)}\n`
        : renderInspect(document, createStyle(useColor(io, 'stdout')))
    await write(io.stdout, text)
    return document.errors ? 1 : 0
  } finally {
    await session.close()
  }
}
