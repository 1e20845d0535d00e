// What `redisStore` is given: where Redis (or a Redis Cluster) is, and how to reach and watch it.
// Apart from store.ts so that the cluster store, loaded on demand, can name it too.

export interface RedisStoreOptions {
  /**
   * `redis://[user:password@]host:port[/db]` or `rediss://…`; or one seed node of a Redis Cluster,
   * `redis-cluster://[user:password@]host:port[?wait=N&wait-timeout=MS]` or `rediss-cluster://…`
   * (the other nodes are discovered; writes that must survive a failover wait for N replicas,
   * default 1, at most MS, default 500).
   */
  url: string
  /** Put before every key and channel (default `mcp-kit:`). */
  prefix?: string
  /**
   * PEM certificates of the authorities to trust for a `rediss://` store, instead of Node's
   * defaults (which `NODE_EXTRA_CA_CERTS` extends): a Redis with a private CA is verified, never
   * accepted unverified.
   */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>
  /** How long the first connection may take before `redisStore` fails (default 5 s). */
  connectTimeoutMs?: number
  /** A cluster's failover: how long a command keeps being retried while a shard has no master (default 15 s). */
  failoverTimeoutMs?: number
  /** Reports connection trouble (the operator's log). */
  onError?: (error: Error) => void
  /** Told once at start when Redis is set up to lose what the store keeps (it evicts keys). */
  onWarning?: (message: string) => void
}
