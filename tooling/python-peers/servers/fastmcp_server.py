"""A FastMCP server for mcp-kit's interop tests.

    python fastmcp_server.py                      # stdio
    python fastmcp_server.py --http --port 0      # Streamable HTTP at http://127.0.0.1:PORT/mcp

Over HTTP it binds the port itself (0: any free one) before serving and prints
`listening http://127.0.0.1:PORT/mcp` on stdout, so the caller learns the port without a race.
"""

import argparse
import socket

import mcp_types
from fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("python-peer", version="1.0.0")


@mcp.tool
def add(a: int, b: int) -> int:
    """Adds two integers"""
    return a + b


class Stats(BaseModel):
    count: int
    total: float
    mean: float


@mcp.tool
def stats(values: list[float]) -> Stats:
    """Count, total and mean of a list of numbers (structured output)"""
    total = sum(values)
    return Stats(count=len(values), total=total, mean=total / len(values) if values else 0.0)


@mcp.tool
def shout(text: str, times: int = 1) -> str:
    """Upper-cases text, repeated"""
    return " ".join([text.upper()] * times)


@mcp.tool
def protocol(ctx: Context) -> dict:
    """The protocol revision this request was served under, as the server saw it"""
    return {"protocolVersion": ctx.request_context.protocol_version}


CONFIRM_SCHEMA = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean", "description": "Really delete it?"}},
    "required": ["confirm"],
}


@mcp.tool
async def delete_note(note_id: str, ctx: Context) -> str:
    """Deletes a note after asking the user to confirm (2026-07-28: input_required; 2025: elicitation)"""
    message = f"Delete note {note_id}?"
    if ctx.request_context.protocol_version >= "2026-07-28":
        answer = (ctx.input_responses or {}).get("confirm")
        if answer is None:
            return mcp_types.InputRequiredResult(
                input_requests={
                    "confirm": mcp_types.ElicitRequest(
                        params=mcp_types.ElicitRequestFormParams(message=message, requested_schema=CONFIRM_SCHEMA)
                    )
                }
            )
    else:
        answer = await ctx.session.elicit(message=message, requested_schema=CONFIRM_SCHEMA)
    if answer.action == "accept" and (answer.content or {}).get("confirm") is True:
        return f"deleted {note_id}"
    return f"kept {note_id}"


@mcp.resource("python://greeting", mime_type="text/plain", description="A fixed greeting")
def greeting() -> str:
    return "hello from python"


@mcp.resource("python://users/{user_id}", mime_type="application/json")
def user(user_id: str) -> dict:
    """A user by id (a resource template)"""
    return {"id": user_id, "name": f"user {user_id}"}


@mcp.prompt
def review(code: str, language: str = "python") -> str:
    """Asks for a code review"""
    return f"Please review this {language} code:\n{code}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--stateless", action="store_true", help="HTTP: no sessions (stateless_http)")
    parser.add_argument("--json-response", action="store_true", help="HTTP: answer with JSON, not SSE")
    args = parser.parse_args()
    if not args.http:
        mcp.run("stdio", show_banner=False)
        return
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(128)
    port = sock.getsockname()[1]
    print(f"listening http://{args.host}:{port}/mcp", flush=True)
    mcp.run(
        "http",
        show_banner=False,
        host=args.host,
        port=port,
        sockets=[sock],
        log_level="warning",
        stateless_http=args.stateless,
        json_response=args.json_response,
    )


if __name__ == "__main__":
    main()
