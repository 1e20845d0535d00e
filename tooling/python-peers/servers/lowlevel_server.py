"""A server written on the Python MCP SDK's low-level `Server` (no FastMCP), for mcp-kit's interop tests.

    python lowlevel_server.py                      # stdio
    python lowlevel_server.py --http --port 0      # Streamable HTTP at http://127.0.0.1:PORT/mcp

Over HTTP it binds the port itself (0: any free one) and prints `listening http://127.0.0.1:PORT/mcp`.
"""

import argparse
import socket

import anyio
import mcp_types as types
import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

MULTIPLY = types.Tool(
    name="multiply",
    description="Multiplies two integers",
    input_schema={
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
    output_schema={
        "type": "object",
        "properties": {"product": {"type": "integer"}},
        "required": ["product"],
    },
)

PROTOCOL = types.Tool(
    name="protocol",
    description="The protocol revision this request was served under",
    input_schema={"type": "object", "properties": {}},
)


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[MULTIPLY, PROTOCOL])


async def call_tool(ctx, params):
    arguments = params.arguments or {}
    if params.name == "multiply":
        product = int(arguments["a"]) * int(arguments["b"])
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=str(product))],
            structured_content={"product": product},
        )
    if params.name == "protocol":
        version = ctx.protocol_version
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=version)],
            structured_content={"protocolVersion": version},
        )
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name}")], is_error=True)


server = Server("python-lowlevel", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def run_stdio() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP instead of stdio")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    if not args.http:
        anyio.run(run_stdio)
        return
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(128)
    port = sock.getsockname()[1]
    print(f"listening http://{args.host}:{port}/mcp", flush=True)
    app = server.streamable_http_app(host=args.host)
    uvicorn_server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    anyio.run(lambda: uvicorn_server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
