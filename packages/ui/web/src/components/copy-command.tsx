// "Copy as command": the mcp-kit command line that does what the page just did.

import { useState } from 'preact/hooks'

export function CopyCommand({ command }: { command: string | undefined }) {
  const [copied, setCopied] = useState(false)
  if (command === undefined) return null
  return (
    <div class="copy-command">
      <code data-testid="cli-command">{command}</code>
      <button
        type="button"
        class="small"
        onClick={() => {
          void navigator.clipboard?.writeText(command).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }}
      >
        {copied ? 'Copied' : 'Copy as command'}
      </button>
    </div>
  )
}
