// The MCP frameworks people build servers with (fastmcp, mcp-framework, @hono/mcp, mcp-handler,
// tmcp), each a small server of servers/, over stdio and Streamable HTTP where the framework
// offers them: mcp-kit's CLI, client library and gateway against each, protocol negotiated.

import { frameworks } from '../peers.js'
import { describeMatrix } from './matrix.js'

describeMatrix('frameworks', frameworks)
