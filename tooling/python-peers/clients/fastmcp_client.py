"""FastMCP's client against an MCP server, for mcp-kit's interop tests.

    python fastmcp_client.py [options] URL                      # Streamable HTTP
    python fastmcp_client.py [options] -- PROGRAM [ARGS...]     # a stdio server

Options: --mode auto|legacy|2026-07-28 (FastMCP's era negotiation), --call NAME[:JSON arguments]
(repeatable), --read URI, --prompt NAME[:JSON arguments], --answer JSON (accept every form the
server asks with this content; without it, decline).

Connects, lists the tools, does what the options say, and prints one JSON object on stdout:
{"protocolVersion", "server", "tools": [names], "calls": [{"name", "isError", "structuredContent",
"text"}], "read": [texts], "prompt": [{"role", "text"}], "asked": [messages of the forms asked]}.
"""

import argparse
import asyncio
import json
import os

from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport


def name_and_arguments(text: str) -> tuple[str, dict]:
    name, _, arguments = text.partition(":")
    return name, json.loads(arguments) if arguments else {}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--call", action="append", default=[])
    parser.add_argument("--read")
    parser.add_argument("--prompt")
    parser.add_argument("--answer")
    parser.add_argument("target", nargs="+", help="an http(s) URL, or a stdio server's command line")
    args = parser.parse_args()
    if args.target[0].startswith(("http://", "https://")):
        # Named, not inferred: inferring a URL's transport imports FastMCP's whole server side.
        transport = StreamableHttpTransport(args.target[0])
    else:
        transport = StdioTransport(args.target[0], args.target[1:], env=dict(os.environ))
    report = {"asked": []}

    async def elicitation_handler(message, response_type, params, context):
        report["asked"].append(message)
        if args.answer is None:
            return ElicitResult(action="decline")
        return ElicitResult(action="accept", content=json.loads(args.answer))

    async with Client(
        transport, mode=args.mode, timeout=60, init_timeout=60, elicitation_handler=elicitation_handler
    ) as client:
        report["protocolVersion"] = client.protocol_version
        info = client.server_info
        report["server"] = getattr(info, "name", None) if info is not None else None
        report["tools"] = [tool.name for tool in await client.list_tools()]
        report["calls"] = []
        for call in args.call:
            name, arguments = name_and_arguments(call)
            result = await client.call_tool(name, arguments, raise_on_error=False)
            report["calls"].append(
                {
                    "name": name,
                    "isError": result.is_error,
                    "structuredContent": result.structured_content,
                    "text": [block.text for block in result.content if getattr(block, "type", None) == "text"],
                }
            )
        if args.read:
            report["read"] = [getattr(item, "text", None) for item in await client.read_resource(args.read)]
        if args.prompt:
            name, arguments = name_and_arguments(args.prompt)
            prompt = await client.get_prompt(name, arguments)
            report["prompt"] = [
                {"role": message.role, "text": getattr(message.content, "text", None)} for message in prompt.messages
            ]
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
