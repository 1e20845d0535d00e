// A tiny /bin/sh watchdog per server that ends the server's tree should this process die without
// cleaning up (SIGKILL, the OOM killer): Node offers neither PR_SET_PDEATHSIG nor a subreaper.

import { type ChildProcess, spawn } from 'node:child_process'
import type { Writable } from 'node:stream'
import { hasProc, readProcessStat } from './process-group.js'
import type { TreeMember } from './process-tree.js'

/**
 * Where the watchdog's shell finds its script: in its environment, not its arguments, so that `ps`
 * shows one short line per watchdog (the script unsets it at once, so the processes it starts do
 * not carry it).
 */
const scriptVariable = 'MCP_KIT_WATCHDOG_SCRIPT'

/**
 * The watchdog. Arguments: grace in tenths of a second; `proc` or `ps`; the session of the
 * process that starts it, never to be followed (`-`: look it up). File descriptor 3 is the
 * server's stdin (4 and 5 its stdout and stderr, held so that its writes do not fail first).
 * Input lines: `<pid> <start time> [L]` (L: it leads its session; a start time of `-` is looked
 * up now, as ps mode does), and `.`, the all-clear. One awk pass over all processes (`cat` of
 * every /proc/<pid>/stat, or `ps`) finds what is ours, by the rules of treeMembers, and returns
 * it to be remembered: `k:` entries to signal, `r:` gone session leaders whose sessions count.
 * In ps mode the "session" column is the process group (macOS ps shows no session id).
 */
export const watchdogScript = `
unset ${scriptVariable}
g=$1 m=$2 own=$3 told= n=0
prog='
function add(s) { if (!(s in bad)) live[s] = 1 }
{
  pid = $1
  if (m == "proc") { sub(/^.*[)] /, ""); P[pid] = $2; S[pid] = $4; T[pid] = $20 }
  else { P[pid] = $2; S[pid] = $3; T[pid] = $5 $6 $7 $8 $9; $1 = $4 }
  D[pid] = ($1 ~ /^[ZXx]/)
  all[++n] = pid
}
END {
  bad[own] = 1; bad[0] = 1; bad[1] = 1; bad[self] = 1
  k = split(told, t, " ")
  for (i = 1; i <= k; i++) {
    c = split(t[i], f, "/")
    p = f[1]
    if (!(p in T) || (T[p] == f[2] && D[p])) { if (c > 2) { add(p); keep[p] = t[i] } }
    else if (T[p] == f[2]) { ours[p] = 1; add(S[p]) }
  }
  do {
    more = 0
    for (i = 1; i <= n; i++) {
      p = all[i]
      if ((p in ours) || D[p]) continue
      if ((P[p] in ours) || (S[p] in live)) { ours[p] = 1; add(S[p]); more = 1 }
    }
  } while (more)
  for (p in keep) print "r:" keep[p]
  for (p in ours) if (p != self && p != 1) print "k:" p "/" T[p] (S[p] == p ? "/L" : "")
}'
table() {
  if [ "$m" = proc ]; then cat /proc/[0-9]*/stat 2>/dev/null
  else ps -A -o pid= -o ppid= -o pgid= -o stat= -o lstart=; fi
}
pass() {
  out=$(table | awk -v m="$m" -v told="$told" -v own="$own" -v self=$$ "$prog")
  told= ours=
  for w in $out; do
    told="$told \${w#?:}"
    case $w in k:*) w=\${w#k:} && ours="$ours \${w%%/*}" ;; esac
  done
  [ -n "$ours" ] || return 1
  for w in $ours; do kill -$1 $w 2>/dev/null; done
  return 0
}
alive() {
  for w in $ours; do
    if [ "$m" = proc ]; then
      read -r l 2>/dev/null </proc/$w/stat || continue
      case \${l##*) } in [ZXx]*) continue ;; esac
      return 0
    elif kill -0 $w 2>/dev/null; then return 0; fi
  done
  return 1
}
wait_gone() {
  n=0
  while [ $n -lt "$g" ] && alive; do
    sleep 0.1
    n=$((n + 1))
  done
}
if [ "$own" = - ]; then
  if [ "$m" = proc ]; then own=$(awk '{ sub(/^.*[)] /, ""); print $4 }' /proc/$PPID/stat 2>/dev/null)
  else own=$(ps -o pgid= -p $PPID 2>/dev/null); fi
fi
while read -r q w f; do
  [ "$q" = . ] && exit 0
  if [ "$w" = - ]; then
    set -- $(ps -o lstart= -p "$q" 2>/dev/null)
    [ $# -gt 0 ] || continue
    w=$1$2$3$4$5
  fi
  told="$told $q/$w\${f:+/L}"
  n=$((n + 1))
  [ $n -ge 256 ] && n=0 && pass 0
done
# This process died. Remember the tree while it is whole; then end the server's stdin and wait.
pass 0 || exit 0
exec 3>&-
wait_gone
pass TERM || exit 0
wait_gone
pass KILL
exit 0
`

export interface WatchdogOptions {
  /** How long each step waits for the tree to exit: after stdin ends, after SIGTERM (default 1000 ms). */
  graceMs?: number
  /** How the watchdog reads processes: /proc (Linux) or `ps` (default: /proc when there is one). */
  mode?: 'proc' | 'ps'
}

export interface Watchdog {
  /** The watchdog's pid (for tests). */
  readonly pid: number | undefined
  /** Tells it about a process of the server's tree. */
  watch(member: Pick<TreeMember, 'pid' | 'leader'> & { startTime?: string }): void
  /** Sends the all-clear and lets it exit: the server's tree has been shut down. */
  dismiss(): void
}

/**
 * The file descriptor under a child's stdio stream. Passed as a number, not as the stream: Node
 * stops reading a stream it hands to another child.
 */
function fdOf(stream: unknown): number | 'ignore' {
  const fd = (stream as { _handle?: { fd?: unknown } } | null)?._handle?.fd
  return typeof fd === 'number' && fd >= 0 ? fd : 'ignore'
}

/**
 * Starts the watchdog of a server that was just spawned, or undefined where there is none
 * (Windows: that takes a job object, which Node cannot create). It costs one fork of sh. It holds a
 * pipe from this process and copies of the server's stdio pipes, and is told the server and each
 * descendant the tracker finds by pid and start time. If its pipe closes without the all-clear,
 * this process died: the server has not seen stdin end (the watchdog's copy keeps it open), so its
 * tree is still whole and is walked first; then the watchdog closes the server's stdin, waits,
 * sends SIGTERM, waits, sends SIGKILL. It signals only what it was told about, checked by start
 * time, plus their descendants and session members. Linux reads /proc; elsewhere `ps` stands in.
 */
export function startWatchdog(server: ChildProcess, options: WatchdogOptions = {}): Watchdog | undefined {
  if (process.platform === 'win32') return undefined
  const mode = options.mode ?? (hasProc ? 'proc' : 'ps')
  const grace = String(Math.max(1, Math.round((options.graceMs ?? 1000) / 100)))
  let stdin: Writable | undefined
  let pid: number | undefined
  try {
    // Our session, never to be followed; in ps mode (no /proc) the watchdog looks up our group.
    const own = mode === 'proc' ? String(readProcessStat(process.pid)?.session ?? '-') : '-'
    const child = spawn(
      '/bin/sh',
      ['-c', `eval "$${scriptVariable}"`, 'mcp-kit-watchdog', grace, mode, own],
      {
        // Its own session: a Ctrl-C or a hang-up meant for this process does not reach it.
        detached: true,
        // Never this process's stdout or stderr: a reader would wait for the watchdog to exit. The
        // server's pipes are socket pairs: our end() still reaches the server, a copy does not stop it.
        stdio: ['pipe', 'ignore', 'ignore', fdOf(server.stdin), fdOf(server.stdout), fdOf(server.stderr)],
        cwd: '/',
        env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C', [scriptVariable]: watchdogScript },
      },
    )
    child.on('error', () => {
      stdin = undefined // no /bin/sh: nothing to be done
    })
    child.unref()
    stdin = child.stdin ?? undefined
    stdin?.on('error', () => {
      stdin = undefined // it was killed: close() still shuts the server down
    })
    ;(stdin as { unref?: () => void } | undefined)?.unref?.()
    pid = child.pid
  } catch {
    return undefined
  }
  return {
    pid,
    watch(member) {
      stdin?.write(`${member.pid} ${member.startTime ?? '-'}${member.leader ? ' L' : ''}\n`)
    },
    dismiss() {
      stdin?.end('.\n')
      stdin = undefined
    },
  }
}
