/**
 * A bounded loopback load generator: `connections` keep-alive clients, each sending its next request as soon as the
 * previous answer is read, for `seconds` after a warm-up; latency of every request in microseconds.
 */
import { Agent, request } from "node:http"

/** What one run measured. */
export interface LoadResult {
  readonly requests: number
  readonly errors: number
  readonly seconds: number
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0)

const once = (agent: Agent, url: URL, headers: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent, headers, method: "GET" }, (res) => {
      res.on("data", () => {})
      res.on("end", () => resolve(res.statusCode ?? 0))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** Runs the load against `url` and returns the figures of the measured part (the warm-up is discarded). */
export const load = async (options: {
  readonly url: string
  readonly headers?: Record<string, string>
  readonly connections: number
  readonly seconds: number
  readonly warmupSeconds: number
}): Promise<LoadResult> => {
  const url = new URL(options.url)
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections })
  const headers = options.headers ?? {}
  const latencies: Array<number> = []
  let errors = 0
  const start = performance.now()
  const warmEnd = start + options.warmupSeconds * 1000
  const end = warmEnd + options.seconds * 1000
  const client = async () => {
    while (true) {
      const sent = performance.now()
      if (sent >= end) return
      const status = await once(agent, url, headers).catch(() => 0)
      const done = performance.now()
      if (sent < warmEnd) continue
      if (status !== 200) errors++
      else latencies.push(done - sent)
    }
  }
  await Promise.all(Array.from({ length: options.connections }, client))
  agent.destroy()
  const sorted = Float64Array.from(latencies).sort()
  return {
    requests: latencies.length,
    errors,
    seconds: options.seconds,
    rps: latencies.length / options.seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99)
  }
}
