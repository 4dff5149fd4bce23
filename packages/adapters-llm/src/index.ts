/** The Anthropic `FieldExtractor` (`claude-*`), through `@anthropic-ai/sdk`. */
export * as Anthropic from "./Anthropic.js"
/** The deterministic `local` `FieldExtractor`: labels, typed candidates and tables, no network. */
export * as Local from "./Local.js"
/** The OpenAI-compatible `FieldExtractor` (`gpt-*`, `o*`, or any `baseURL`), through `openai`. */
export * as OpenAI from "./OpenAI.js"
/** Model answers checked against the skill, the repair round's message, and the merge of split requests. */
export * as Output from "./Output.js"
/** Routes models to the configured providers behind one `FieldExtractor`. */
export * as Router from "./Router.js"
/** The JSON schema of a skill's fields (tool input / structured output). */
export * as SkillSchema from "./SkillSchema.js"
