// Where the Redis task store keeps a task: its record, its entry in an index of every task
// (scored by when it may go) and the channel announcing its writes. On one Redis these are single
// keys; on a cluster everything one write touches shares a hash tag, and the index is sharded so
// that the tasks' traffic spreads over many slots instead of one.

/** Where a task's record, its index entry and its notices live. */
export interface TaskKeys {
  /** Put before channel names given to the pub/sub (its `subscribe` adds it itself). */
  prefix: string
  record(taskId: string): string
  index(taskId: string): string
  /** Every index key. */
  indexes: readonly string[]
  /** A task's notice channel, without the prefix. */
  channel(taskId: string): string
  /** Every notice channel, without the prefix. */
  channels: readonly string[]
  /** PUBLISH on one Redis; SPUBLISH on a cluster (the channel shares the record's slot). */
  publish: 'PUBLISH' | 'SPUBLISH'
  /** A set of every id, which older releases kept as the index: nothing reads it, so it is dropped. */
  legacyIndex?: string
}

/** One Redis: `task:<id>`, one `task-index`, one `task-notices` channel. */
export function singleTaskKeys(prefix: string): TaskKeys {
  // Not `tasks`, the channel on which older releases publish whole records: instances of both
  // releases sharing a prefix (a rolling upgrade) must not take each other's messages.
  const channel = 'task-notices'
  return {
    prefix,
    record: (taskId) => `${prefix}task:${taskId}`,
    index: () => `${prefix}task-index`,
    indexes: [`${prefix}task-index`],
    channel: () => channel,
    channels: [channel],
    publish: 'PUBLISH',
    legacyIndex: `${prefix}tasks`,
  }
}

/** A cluster: `shards` index shards, each with its hash tag `{t<n>}`, a task's shard from its id. */
export function shardedTaskKeys(prefix: string, shards: number): TaskKeys {
  const tag = (shard: number) => `{t${shard}}`
  const shardOf = (taskId: string) => {
    // FNV-1a: any id (a client may name one) spreads evenly, and the same on every instance.
    let hash = 0x811c9dc5
    for (let index = 0; index < taskId.length; index++)
      hash = Math.imul(hash ^ taskId.charCodeAt(index), 0x01000193) >>> 0
    return hash % shards
  }
  const all = Array.from({ length: shards }, (_, shard) => shard)
  return {
    prefix,
    record: (taskId) => `${prefix}${tag(shardOf(taskId))}task:${taskId}`,
    index: (taskId) => `${prefix}${tag(shardOf(taskId))}task-index`,
    indexes: all.map((shard) => `${prefix}${tag(shard)}task-index`),
    channel: (taskId) => `${tag(shardOf(taskId))}task-notices`,
    channels: all.map((shard) => `${tag(shard)}task-notices`),
    publish: 'SPUBLISH',
  }
}
