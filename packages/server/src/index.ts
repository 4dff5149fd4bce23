/** The server's configuration from environment variables (the only module that reads them). */
export * as Config from "./Config.js"
/** In-process use for Node apps: the layers of your choice, queued extractions, and `extractNow` with no queue. */
export * as Embed from "./Embed.js"
/** The JWT secret (configured or generated in the data directory) and HS256 tokens for local use. */
export * as Jwt from "./Jwt.js"
/** The real layers of a deployment, from the settings. */
export * as Layers from "./Layers.js"
/** The operator commands' use cases: skills from files, catalog imports, keys. */
export * as Operations from "./Operations.js"
/** The roles of a process: `api`, `worker`, `all`. */
export * as Serve from "./Serve.js"
