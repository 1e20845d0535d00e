// The JSON-RPC error a server answered a request with, as the Connection rejects the request.

/** A JSON-RPC error the server answered with. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}
