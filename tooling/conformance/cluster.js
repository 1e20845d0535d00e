// The deployment the cluster legs of run.js test, as an operator would run it: a Redis Cluster of
// 3 masters and 3 replicas (@mcp-kit/fixtures/redis-cluster), three `mcp-kit serve everything.js
// --store redis-cluster://…` instances on it, and HAProxy in front (round robin, no affinity), so
// every request of a scenario may land on another instance. Undefined, after a warning, where
// redis-server, redis-cli or haproxy is missing.

import { haproxyMissing, startHaproxy } from '@mcp-kit/fixtures/haproxy'
import { clusterForTests } from '@mcp-kit/fixtures/redis-cluster'

/**
 * Starts the deployment with run.js's `startServer` (extra serve arguments → { child, url, stderr })
 * and `stopServer`; resolves with the balancer's URL, every instance's stderr, and `stop()`.
 */
export async function startClusterDeployment({ startServer, stopServer }) {
  const what = 'conformance (three instances on a Redis Cluster behind HAProxy)'
  if (haproxyMissing({ what }) !== undefined) return undefined
  const cluster = await clusterForTests({ what })
  if (cluster === undefined) return undefined
  const prefix = `mcp-kit-conformance:${process.pid}-${Date.now()}:`
  const instances = [1, 2, 3].map(() => startServer(['--store', cluster.url, '--store-prefix', prefix]))
  let balancer
  const stop = async () => {
    await balancer?.stop()
    await Promise.all(instances.map((instance) => stopServer(instance.child)))
    await cluster.stop()
  }
  try {
    const urls = await Promise.all(instances.map((instance) => instance.url))
    balancer = await startHaproxy({ backends: urls })
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url: balancer.url,
    stderr: () =>
      instances.map((instance, index) => `--- instance ${index + 1}\n${instance.stderr()}`).join('\n'),
    stop,
  }
}
