console.log('mcp-kit')
