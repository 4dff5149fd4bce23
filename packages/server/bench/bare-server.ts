/**
 * The baseline of the benchmark: a bare `node:http` server answering the same JSON bodies from memory (exact path
 * and query match, the `x-api-key` checked against one string), on the port given, in its own process like the
 * real server. Usage: `node bench/bare-server.ts <routes.json> <port>`; prints `listening` when ready.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const [routesFile, port] = process.argv.slice(2)
const { key, routes } = JSON.parse(readFileSync(routesFile ?? "", "utf8")) as {
  readonly key: string
  readonly routes: Record<string, string>
}
const bodies = new Map(Object.entries(routes).map(([path, body]) => [path, Buffer.from(body)]))

createServer((req, res) => {
  if (req.headers["x-api-key"] !== key) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid API key"}')
    return
  }
  const body = bodies.get(req.url ?? "")
  if (body === undefined) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}')
    return
  }
  res.writeHead(200, { "content-type": "application/json", "content-length": body.byteLength }).end(body)
}).listen(Number(port), "127.0.0.1", () => console.log("listening"))
