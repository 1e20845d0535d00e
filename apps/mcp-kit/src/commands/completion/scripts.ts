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

// bash splits words at `=`, `:` and `@` (COMP_WORDBREAKS) and keeps their quotes, so
// `'@p/tool?q=a b&tool=ec` reaches a completion function as pieces, quote included. The script
// reads the line up to the cursor itself, as the shell will hand it to mcp-kit (quotes and
// backslashes removed), asks for those words' candidates, and offers of each what replaces the
// text being completed (readline's word, $2: after an open quote, or after the last break),
// quoted to fit where the cursor is: inside '…', inside "…", or bare.
const bash = `###-begin-mcp-kit-completions-###
# bash completion for mcp-kit: commands, flags, profiles, and the tools and parameters a
# profile saved (no server is started).
# Install: mcp-kit completion bash >> ~/.bashrc   (or: source <(mcp-kit completion bash))

# Splits $1 into the words the command will get, quotes and backslashes removed: sets the
# caller's words (all but the last), word (the last: "" after a blank) and quote (the quote
# still open at the end).
__mcp_kit_split()
{
    local text="$1" char next started=0 i
    words=()
    word=""
    quote=""
    for (( i = 0; i < \${#text}; i++ )); do
        char="\${text:i:1}"
        next="\${text:i+1:1}"
        if [[ "$quote" == "'" ]]; then
            if [[ "$char" == "'" ]]; then quote=""; else word+="$char"; fi
        elif [[ "$quote" == '"' ]]; then
            if [[ "$char" == '"' ]]; then
                quote=""
            elif [[ "$char" == "\\\\" && -n "$next" && "\\"\\\\\\$\\\`" == *"$next"* ]]; then
                word+="$next"
                (( i++ ))
            else
                word+="$char"
            fi
        elif [[ "$char" == "'" || "$char" == '"' ]]; then
            quote="$char"
            started=1
        elif [[ "$char" == "\\\\" ]]; then
            word+="$next"
            (( i++ ))
            started=1
        elif [[ "$char" == [[:space:]] ]]; then
            (( started )) && words+=("$word")
            word=""
            started=0
        else
            word+="$char"
            started=1
        fi
    done
}
_mcp_kit_yargs_completions()
{
    # The text Tab replaces (readline's word): after an open quote, or after the last break.
    local cur="\${2-\${COMP_WORDS[COMP_CWORD]}}"
    local line
    if [[ -n "\${COMP_LINE-}" ]]; then
        line="\${COMP_LINE:0:\${COMP_POINT:-\${#COMP_LINE}}}"
    else
        line="\${COMP_WORDS[*]:0:COMP_CWORD+1}"
    fi
    local -a words candidates
    local word quote
    __mcp_kit_split "$line"
    local -a before=("\${words[@]}")
    local current="$word" open="$quote"
    # That text as the command will read it (inside the quote still open, if one is).
    __mcp_kit_split "$open$cur"
    local typed="$word"
    words=("\${before[@]}" "$current")
    word="$current"
    local cut=$(( \${#word} - \${#typed} ))
    (( cut < 0 )) && cut=0
    mapfile -t candidates < <(SHELL=bash mcp-kit --get-yargs-completions "\${words[@]}" 2>/dev/null)
    COMPREPLY=()
    local candidate rest quoted char i
    for candidate in "\${candidates[@]}"; do
        [[ "$candidate" == "$word"* ]] || continue
        # What replaces the text, quoted for where the cursor is.
        rest="\${candidate:cut}"
        quoted=""
        for (( i = 0; i < \${#rest}; i++ )); do
            char="\${rest:i:1}"
            if [[ "$open" == "'" ]]; then
                [[ "$char" == "'" ]] && char="'\\\\''"
            elif [[ "$open" == '"' ]]; then
                [[ "\\"\\\\\\$\\\`" == *"$char"* ]] && char="\\\\$char"
            elif [[ "$char" == [[:space:]] || " '\\"\\\\\\$\\\`;&|<>()" == *"$char"* ]]; then
                char="\\\\$char"
            fi
            quoted+="$char"
        done
        COMPREPLY+=("$quoted")
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
