// The shell completion scripts `mcp-kit completion <shell>` prints. Each asks the CLI's hidden
// entry point (`mcp-kit --get-yargs-completions <words…>`, yargs' own) for candidates, one per
// line, so the three shells complete the same commands, flags, profiles, tools and parameters.
// SHELL is set for that call because yargs picks its output format (descriptions or not) from it.

export const shells = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof shells)[number]

/** The shell a completion call answers (what the scripts below put in SHELL). */
export function shellOf(env: Readonly<Record<string, string | undefined>>): Shell {
  const shell = env.SHELL ?? ''
  if (shell.includes('zsh')) return 'zsh'
  if (shell.includes('fish')) return 'fish'
  return 'bash'
}

// bash splits words at `=` and `:` (COMP_WORDBREAKS), so `@p?tool=ec` reaches a completion
// function as three words. The script hands mcp-kit the blank-separated words of the line up to
// the cursor instead, and cuts from each candidate the part bash already counts as earlier words.
const bash = `###-begin-mcp-kit-completions-###
# bash completion for mcp-kit: commands, flags, profiles, and the tools and parameters a
# profile saved (no server is started).
# Install: mcp-kit completion bash >> ~/.bashrc   (or: source <(mcp-kit completion bash))
_mcp_kit_yargs_completions()
{
    local cur="\${COMP_WORDS[COMP_CWORD]}"
    local line
    if [[ -n "\${COMP_LINE-}" ]]; then
        line="\${COMP_LINE:0:\${COMP_POINT:-\${#COMP_LINE}}}"
    else
        line="\${COMP_WORDS[*]:0:COMP_CWORD+1}"
    fi
    local -a words candidates
    read -r -a words <<< "$line"
    if [[ -z "$line" || "$line" =~ [[:space:]]$ ]]; then words+=(""); fi
    local word="\${words[\${#words[@]}-1]}"
    local cut=$(( \${#word} - \${#cur} ))
    (( cut < 0 )) && cut=0
    mapfile -t candidates < <(SHELL=bash mcp-kit --get-yargs-completions "\${words[@]}" 2>/dev/null)
    COMPREPLY=()
    local candidate
    for candidate in "\${candidates[@]}"; do
        [[ "$candidate" == "$word"* ]] && COMPREPLY+=("\${candidate:cut}")
    done
    # name=, @profile/ and mcp+npx:// go on with more text: no space after them.
    if [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == *[=/] ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}
complete -o bashdefault -o default -F _mcp_kit_yargs_completions mcp-kit
###-end-mcp-kit-completions-###
`

// zsh keeps `=` and `:` inside words; candidates come back as word:description (colons in the
// word escaped), and those ending in = or / are offered without the trailing space.
const zsh = `#compdef mcp-kit
###-begin-mcp-kit-completions-###
# zsh completion for mcp-kit: commands, flags, profiles, and the tools and parameters a
# profile saved (no server is started).
# Install: mcp-kit completion zsh > "\${fpath[1]}/_mcp-kit"   (or: source <(mcp-kit completion zsh))
_mcp_kit_yargs_completions()
{
  local -a reply spaced unspaced
  local item si=$IFS
  IFS=$'\\n' reply=($(SHELL=zsh mcp-kit --get-yargs-completions "\${words[@]:0:$CURRENT}" 2>/dev/null))
  IFS=$si
  for item in "\${reply[@]}"; do
    if [[ "$item" == *[=/] || "$item" == *[=/]:* ]]; then unspaced+=("$item"); else spaced+=("$item"); fi
  done
  if (( \${#reply} > 0 )); then
    (( \${#spaced} > 0 )) && _describe 'values' spaced
    (( \${#unspaced} > 0 )) && _describe 'values' unspaced -S ''
  else
    _default
  fi
}
if [[ "\${zsh_eval_context[-1]}" == "loadautofunc" ]]; then
  _mcp_kit_yargs_completions "$@"
else
  compdef _mcp_kit_yargs_completions mcp-kit
fi
###-end-mcp-kit-completions-###
`

// fish: the words before the cursor and the word being typed ("" when none), candidates as
// word<TAB>description.
const fish = `###-begin-mcp-kit-completions-###
# fish completion for mcp-kit: commands, flags, profiles, and the tools and parameters a
# profile saved (no server is started).
# Install: mcp-kit completion fish > ~/.config/fish/completions/mcp-kit.fish
function __mcp_kit_yargs_completions
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    env SHELL=fish mcp-kit --get-yargs-completions $words "$current" 2>/dev/null
end
complete -c mcp-kit -f -a '(__mcp_kit_yargs_completions)'
###-end-mcp-kit-completions-###
`

export const completionScripts: Readonly<Record<Shell, string>> = { bash, zsh, fish }
