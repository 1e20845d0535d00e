// `mcp-kit inspect <ref>`: everything a server offers, for people (text) or scripts (JSON).

import { type Io, useColor, write } from '../../cli/io.js'
import { diagnostics } from '../../output/diagnostics.js'
import { createStyle } from '../../output/style.js'
import { writeJson } from '../../output/write-records.js'
import type { ConnectionArguments } from '../../session/connection-flags.js'
import { openSession } from '../../session/open-session.js'
import { resolveTarget, type TargetArguments } from '../../session/reference.js'
import { checkProfileSchema } from '../../session/schema-check.js'
import { collectInspectDocument } from './inspect-document.js'
import { renderInspect } from './render-inspect.js'

export interface InspectArguments extends ConnectionArguments, TargetArguments {
  format: 'text' | 'json'
  save?: string
}

export async function runInspect(args: InspectArguments, io: Io): Promise<number> {
  const { resolved, text } = await resolveTarget(args, io)
  const { describeServer } = await import('@mcp-kit/profiles')
  const session = await openSession(resolved, args, io)
  try {
    const document = await collectInspectDocument(session, text, describeServer(resolved.server))
    await checkProfileSchema(resolved, document.tools, diagnostics(io, args))
    if (args.save !== undefined) {
      const { saveUsedReference } = await import('../profile/create.js')
      await saveUsedReference(args.save, resolved, document.tools, args, io, text)
    }
    if (args.format === 'json') await writeJson(io, document, 2)
    else await write(io.stdout, renderInspect(document, createStyle(useColor(io, 'stdout'))))
    return document.errors ? 1 : 0
  } finally {
    await session.close()
  }
}
