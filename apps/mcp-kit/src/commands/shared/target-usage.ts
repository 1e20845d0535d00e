// The usage lines of the commands that take a server either as a reference or as a command line
// after `--` (inspect, cat, head, tail, put, watch).

/**
 * Two usage lines: `$0 <command> <reference> [rest]` and `$0 <command> [?query] [flags] [rest] --
 * <program> [args…]`, then the description.
 */
export function targetUsage(command: string, rest: string, flags: string, describe: string): string {
  const line = (words: string[]) => words.filter((word) => word !== '').join(' ')
  return [
    line(['$0', command, '<reference>', rest]),
    line(['$0', command, '[?query]', flags, rest, '-- <program> [args…]']),
    '',
    describe,
  ].join('\n')
}
