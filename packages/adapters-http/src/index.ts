/** The contract: the spec's endpoints, the extensions and the probes as one `HttpApi`. */
export * as Api from "./Api.js"
/** JWT (jose) and API-key authentication: configuration, claims, the security middleware layers. */
export * as Auth from "./Auth.js"
/** Strict Base64 decoding of `file_base64`. */
export * as Base64 from "./Base64.js"
/** HTTP error bodies (spec 7) and the mapping of domain errors onto them. */
export * as Errors from "./Errors.js"
/** The handlers of the operator extensions. */
export * as ExtensionHandlers from "./ExtensionHandlers.js"
/** Operator extensions beyond the spec: skills, catalogs, quotas, archive. */
export * as Extensions from "./Extensions.js"
/** The handlers of the spec's groups and the probes. */
export * as Handlers from "./Handlers.js"
/** The whole HTTP application: `layer(options)`. */
export * as Http from "./Http.js"
/** Shared field schemas: `Text`, the strings the database can store. */
export * as Schemas from "./Schemas.js"
/** The middleware keys: JWT and API-key security, request errors. */
export * as Security from "./Security.js"
/** The submission guards: Base64, file name, sniffed type, mode and model. */
export * as Submission from "./Submission.js"
