/** The contract: the spec's endpoints, the extensions and the probes as one `HttpApi`. */
export * as Api from "./Api.js"
/** JWT (jose) and API-key authentication: configuration, claims, the security middleware layers. */
export * as Auth from "./Auth.js"
/** A typed client of the whole contract (`HttpApiClient`), for embedders and tests. */
export * as Client from "./Client.js"
/** The review console as static files under `/console`, with a strict Content-Security-Policy (extension). */
export * as Console from "./Console.js"
/** HTTP error bodies (spec 7) and the mapping of domain errors onto them. */
export * as Errors from "./Errors.js"
/** Operator extensions beyond the spec: skills, catalogs, quotas, archive. */
export * as Extensions from "./Extensions.js"
/** The whole HTTP application: `layer(options)`. */
export * as Http from "./Http.js"
/** Page images of stored documents (extension): `GET /v1/extractions/{id}/pages/{n}`. */
export * as Pages from "./Pages.js"
/** The middleware keys: JWT and API-key security, request errors. */
export * as Security from "./Security.js"
/** The `WebhookTransport` over Node's http/https: SSRF checks, pinned addresses, no redirects, timeouts. */
export * as WebhookSender from "./WebhookSender.js"
/** The webhook endpoints (an extension): the contract group and its schemas. */
export * as Webhooks from "./Webhooks.js"
