// A message from the workspace (a login's progress): text, with an http(s) address in it as a link.

export function Notice({ message }: { message: string }) {
  const match = /https?:\/\/\S+/.exec(message)
  if (match === null) return <span>{message}</span>
  const at = match.index
  return (
    <span>
      {message.slice(0, at)}
      <a href={match[0]} target="_blank" rel="noopener noreferrer" data-testid="notice-link">
        {match[0]}
      </a>
      {message.slice(at + match[0].length)}
    </span>
  )
}
