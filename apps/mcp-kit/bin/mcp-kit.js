#!/usr/bin/env node
// The installed `mcp-kit` command. A committed file, so the workspace can link it before the
// first build; the CLI itself is compiled to dist/.
import '../dist/bin.js'
