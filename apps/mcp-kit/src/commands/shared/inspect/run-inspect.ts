// `mcp-kit inspect <ref>`: everything a server offers, or one tool whole (`@profile/tool`,
// `?tool=`, `--tool`), for people (text) or scripts (JSON).

import { CliError } from '../../../base/errors.js'
import { type Io, useColor, write } from '../../../base/io.js'
import { diagnostics } from '../../../output/diagnostics.js'
import { createStyle } from '../../../output/style.js'
import { writeJson } from '../../../output/write-records.js'
import type { ConnectionArguments } from '../../../session/connection-flags.js'
import { openSession } from '../../../session/open-session.js'
import { resolveTarget, type TargetArguments } from '../../../session/reference.js'
import { checkProfileSchema } from '../../../session/schema-check.js'
import { findTool } from '../../../session/tool-arguments.js'
import { collectInspectDocument } from './inspect-document.js'
import { renderInspect } from './render-inspect.js'
import { renderTool, type ToolDocument, toolExample } from './tool-view.js'

export interface InspectArguments extends ConnectionArguments, TargetArguments {
  format: 'text' | 'json'
  save?: string
}

export async function runInspect(args: InspectArguments, io: Io): Promise<number> {
  const { resolved, text } = await resolveTarget(args, io)
  const { describeServer } = await import('@mcp-kit/profiles')
  const operation = resolved.operation
  if (operation.kind !== 'inspect' && operation.kind !== 'callTool') {
    throw new CliError(
      'usage',
      'inspect shows a server, or one tool (@profile/tool, ?tool=name or --tool name); use cat for resource=, prompt= and list=',
    )
  }
  const session = await openSession(resolved, args, io)
  try {
    if (operation.kind === 'callTool') {
      // One tool, whole.
      const { tool, tools } = await findTool(session, operation.name, resolved, io, args)
      if (args.save !== undefined) {
        const { saveUsedReference } = await import('../profile/save-profile.js')
        await saveUsedReference(args.save, resolved, tools, args, io, text)
      }
      const { name, version, title } = session.serverInfo
      const document: ToolDocument = {
        reference: text,
        server: title === undefined ? { name, version } : { name, version, title },
        protocolVersion: session.protocolVersion,
        transport: session.transportKind,
        launch: describeServer(resolved.server),
        tool,
        example: await toolExample(tool, resolved),
      }
      if (args.format === 'json') await writeJson(io, document, 2)
      else await write(io.stdout, renderTool(document, createStyle(useColor(io, 'stdout'))))
      return 0
    }
    const document = await collectInspectDocument(session, text, describeServer(resolved.server))
    await checkProfileSchema(resolved, document.tools, diagnostics(io, args))
    if (args.save !== undefined) {
      const { saveUsedReference } = await import('../profile/save-profile.js')
      await saveUsedReference(args.save, resolved, document.tools, args, io, text)
    }
    // A server from a registry: the entry and what the registry says of it (`_meta`).
    const registry = resolved.registry && (await import('../../../registry/inspect-registry.js'))
    const view = registry && resolved.registry ? registry.registryView(resolved.registry) : undefined
    const style = createStyle(useColor(io, 'stdout'))
    if (args.format === 'json') await writeJson(io, view ? { ...document, registry: view } : document, 2)
    else
      await write(
        io.stdout,
        renderInspect(document, style) + (registry && view ? registry.renderRegistryView(view, style) : ''),
      )
    return document.errors ? 1 : 0
  } finally {
    await session.close()
  }
}
