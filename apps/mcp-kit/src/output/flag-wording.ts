// The client library names its own options where a message needs one (the limit that fired, the
// size to raise, the token to give); on the command line those are flags, and these are their words.

const libraryToFlags: ReadonlyArray<readonly [string, string]> = [
  ['(callTimeoutMs)', '(--timeout)'],
  ['(totalTimeoutMs)', '(--max-time)'],
  ['(connectTimeoutMs)', '(--connect-timeout)'],
  ['raise it with maxMessageBytes', 'raise it with --max-message-size'],
  [
    '(answer sampling with input.sample)',
    '(answer sampling with --sampling-command CMD, --sampling-url URL [--sampling-model NAME] or --sampling-ask)',
  ],
  [
    ' (does it need a token? set bearerToken, or an Authorization header in headers)',
    " (does it need --header 'Authorization: Bearer …'?)",
  ],
]

/** A message of @mcp-kit/client in the CLI's terms: its option names become the flags that set them. */
export function inFlagTerms(message: string): string {
  let worded = message
  for (const [library, flags] of libraryToFlags) worded = worded.replaceAll(library, flags)
  return worded
}
