/** The Anthropic `FieldExtractor` (`claude-*`), through `@anthropic-ai/sdk`. */
export * as Anthropic from "./Anthropic.js"
/** The deterministic `local` `FieldExtractor`: labels, typed candidates and tables, no network. */
export * as Local from "./Local.js"
/** The OpenAI-compatible `FieldExtractor` (`gpt-*`, `o*`, or any `baseURL`), through `openai`. */
export * as OpenAI from "./OpenAI.js"
/** The options the providers share, their defaults and ranges, and the default model names (no SDK loaded). */
export * as Provider from "./Provider.js"
/** Routes models to the configured providers behind one `FieldExtractor`. */
export * as Router from "./Router.js"
