/**
 * The extraction conversation both providers share: per chunk of pages, ask; on truncation ask once more with a
 * larger `max_tokens`; on a refusal stop (permanent); check the answer against the skill and, if anything is
 * wrong, run one repair round; then merge the chunks' answers and sum the usage of every call.
 */
import { Extractor, Ports, type Skill } from "@legible/core"
import { Clock, Effect } from "effect"
import { type Capabilities, type Chunk, chunks } from "./content.js"
import { mergeCertainty } from "./logprobs.js"
import * as Output from "./output.js"
import { type Caller, call, type RequestOptions } from "./resilience.js"

/** Tokens of one call. */
export interface Tokens {
  readonly prompt: number
  readonly response: number
}

/** A model's answer, as the flow needs it. */
export interface Turn<M> {
  /** `overflow`: the input did not fit the model's context window (no retry can help). */
  readonly outcome: "answer" | "truncated" | "refused" | "overflow"
  /** The answer's values (tool input or parsed JSON), or why there is none usable. */
  readonly output:
    | { readonly _tag: "Output"; readonly value: unknown }
    | { readonly _tag: "Unusable"; readonly why: string }
  /** What the model said when it refused. */
  readonly refusal: string
  readonly tokens: Tokens
  /** The model's probability of each literal it wrote (`logprobs.ts`), when the provider gives one. */
  readonly certainty?: ReadonlyMap<string, number> | undefined
  /** The conversation so far, this answer, and a user message with `text` (the repair request). */
  followUp(text: string): M
}

/** A provider's side of the conversation (`M` its messages, `A` its answers): a chunk's first messages and a call. */
export interface Dialogue<M, A> {
  start(chunk: Chunk, index: number, count: number): M
  /** One call of the SDK, given the attempt's options (`Resilience.call` times, retries and limits it). */
  request(messages: M, maxTokens: number, options: RequestOptions): Promise<A>
  /** How an answer reads for the flow. */
  turn(messages: M, answer: A): Turn<M>
}

const refused = (provider: string, turn: Turn<unknown>) =>
  new Extractor.ExtractorError({
    reason: "Refused",
    message: `${provider}: the model refused to extract${turn.refusal === "" ? "" : `: ${turn.refusal}`}`,
    permanent: true
  })

const checked = (fields: ReadonlyArray<Skill.SkillField>, turn: Turn<unknown>): Output.Checked =>
  turn.output._tag === "Output" ? Output.check(fields, turn.output.value) : Output.unusable(fields, turn.output.why)

const runChunk = <M, A>(
  caller: Caller,
  dialogue: Dialogue<M, A>,
  fields: ReadonlyArray<Skill.SkillField>,
  messages: M
): Effect.Effect<
  {
    readonly values: Extractor.ExtractedFields
    readonly tokens: ReadonlyArray<Tokens>
    readonly certainty: ReadonlyMap<string, number> | undefined
  },
  Extractor.ExtractorError
> =>
  Effect.gen(function* () {
    const { settings, provider } = caller
    const tokens: Array<Tokens> = []
    const ask = (m: M, maxTokens: number) =>
      call(caller, (options) => dialogue.request(m, maxTokens, options)).pipe(
        Effect.map((answer) => dialogue.turn(m, answer)),
        Effect.tap((turn) => Effect.sync(() => tokens.push(turn.tokens)))
      )

    let turn = yield* ask(messages, settings.maxTokens)
    if (turn.outcome === "overflow") {
      return yield* new Extractor.ExtractorError({
        reason: "TooLarge",
        message: `${provider}: the document part does not fit the model's context window (lower maxTextChars)`,
        permanent: true
      })
    }
    if (turn.outcome === "truncated") {
      yield* Effect.logWarning(
        `${provider}: answer truncated at ${settings.maxTokens} tokens; asking again with ${settings.maxTokensRetry}`
      )
      turn = yield* ask(messages, settings.maxTokensRetry)
      if (turn.outcome === "truncated") {
        return yield* new Extractor.ExtractorError({
          reason: "InvalidOutput",
          message: `${provider}: the answer was cut at max_tokens twice (${settings.maxTokens}, then ${settings.maxTokensRetry})`,
          permanent: true
        })
      }
    }
    if (turn.outcome === "refused") return yield* refused(provider, turn)
    const first = checked(fields, turn)
    if (first.problems.length === 0) return { values: first.values, tokens, certainty: turn.certainty }

    yield* Effect.logWarning(`${provider}: ${first.problems.length} problem(s) in the answer; one repair round`)
    const repair = yield* ask(turn.followUp(Output.repairMessage(first.problems)), settings.maxTokensRetry)
    if (repair.outcome === "refused") return yield* refused(provider, repair)
    // A truncated repair is no repair: the first answer stands, its wrong parts empty.
    if (repair.outcome === "truncated") return { values: first.values, tokens, certainty: turn.certainty }
    return {
      values: Output.afterRepair(fields, first, checked(fields, repair)),
      tokens,
      certainty: mergeCertainty([turn.certainty, repair.certainty])
    }
  })

/** Runs an extraction through a provider's dialogue: chunks in parallel (bounded by the provider's semaphore). */
export const extract = <M, A>(
  caller: Caller,
  dialogue: Dialogue<M, A>,
  request: Extractor.ExtractRequest,
  capabilities: Capabilities
): Effect.Effect<Extractor.ExtractResponse, Extractor.ExtractorError> =>
  Effect.gen(function* () {
    const started = yield* Clock.currentTimeMillis
    const parts = chunks(request, caller.settings.budget, capabilities)
    if (parts.length > 1) {
      yield* Effect.logInfo(
        `${caller.provider}: document sent in ${parts.length} requests (pages split to fit the budget)`
      )
    }
    const results = yield* Effect.forEach(
      parts,
      (chunk, index) => runChunk(caller, dialogue, request.skill.fields, dialogue.start(chunk, index, parts.length)),
      { concurrency: caller.settings.concurrency }
    )
    const tokens = results.flatMap((r) => r.tokens)
    const prompt = tokens.reduce((sum, t) => sum + t.prompt, 0)
    const response = tokens.reduce((sum, t) => sum + t.response, 0)
    const finished = yield* Clock.currentTimeMillis
    const certainty = mergeCertainty(results.map((r) => r.certainty))
    return {
      values: Output.mergeParts(
        request.skill.fields,
        results.map((r) => r.values)
      ),
      usage: {
        tokens_consumidos: prompt + response,
        prompt_tokens: prompt,
        response_tokens: response,
        duration: (finished - started) / 1000,
        model: request.model
      },
      ...(certainty === undefined ? {} : { certainty })
    }
  })

/** A provider's `FieldExtractor`: it serves the models `pattern` matches, each request through its own dialogue. */
export const extractor = <M, A>(
  caller: Caller,
  pattern: RegExp,
  capabilities: Capabilities,
  dialogue: (request: Extractor.ExtractRequest) => Dialogue<M, A>
): Ports.FieldExtractor["Service"] =>
  Ports.FieldExtractor.of({
    supports: (model) => pattern.test(model),
    extract: (request) =>
      Effect.suspend(() => extract(caller, dialogue(request), request, capabilities)).pipe(
        Effect.withSpan(`${caller.provider}.extract`)
      )
  })
