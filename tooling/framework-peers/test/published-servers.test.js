// Published MCP servers from npm that start without credentials or a browser (the reference
// servers, context7, Notion's), over the transports they offer: mcp-kit's CLI, client library
// and gateway against each, protocol negotiated. Tools that reach the network are listed only.

import { publishedServers } from '../peers.js'
import { describeMatrix } from './matrix.js'

describeMatrix('published servers', publishedServers)
