/**
 * The model's own certainty of each literal it wrote, from the token log-probabilities of a JSON answer: the
 * probability of a string value is the product of the probabilities of the tokens that wrote it, its closing quote
 * included (the model chose where the value ends). Tokens are placed by their UTF-8 bytes, since a token may hold
 * part of a character; an answer whose tokens do not spell its content gives no certainty rather than a wrong one.
 */

/** One token of an answer with its log-probability (OpenAI's `choices[].logprobs.content[]`). */
export interface TokenLogprob {
  readonly token: string
  readonly logprob: number
  readonly bytes?: ReadonlyArray<number> | null | undefined
}

const encoder = new TextEncoder()

const byteLength = (text: string) => encoder.encode(text).length

/** Each string value of a JSON text with the UTF-8 byte span of its body and closing quote. */
const stringSpans = (json: string): Array<{ readonly value: string; readonly start: number; readonly end: number }> => {
  const spans: Array<{ value: string; start: number; end: number }> = []
  let bytes = 0
  let i = 0
  while (i < json.length) {
    const c = json[i] ?? ""
    if (c !== '"') {
      bytes += byteLength(c)
      i++
      continue
    }
    let j = i + 1
    while (j < json.length && json[j] !== '"') j += json[j] === "\\" ? 2 : 1
    const literal = json.slice(i, j + 1)
    const start = bytes + 1
    const end = start + byteLength(json.slice(i + 1, j)) + 1
    // Keys are strings too: a string followed by a colon is a key, not a value.
    const rest = json.slice(j + 1).trimStart()
    if (!rest.startsWith(":")) {
      try {
        spans.push({ value: JSON.parse(literal) as string, start, end })
      } catch {
        return []
      }
    }
    bytes = end
    i = j + 1
  }
  return spans
}

/**
 * The probability of each distinct string value of `content` (its lowest where it is written more than once); empty
 * when the tokens do not add up to the content.
 */
export const literalCertainty = (content: string, tokens: ReadonlyArray<TokenLogprob>): ReadonlyMap<string, number> => {
  const starts: Array<number> = []
  let offset = 0
  for (const t of tokens) {
    starts.push(offset)
    offset += t.bytes?.length ?? byteLength(t.token)
  }
  const certainty = new Map<string, number>()
  if (offset !== byteLength(content)) return certainty
  let k = 0
  for (const span of stringSpans(content)) {
    while (k < tokens.length && (starts[k + 1] ?? offset) <= span.start) k++
    let logprob = 0
    for (let t = k; t < tokens.length && (starts[t] ?? offset) < span.end; t++) logprob += tokens[t]?.logprob ?? 0
    const p = Math.min(1, Math.exp(logprob))
    certainty.set(span.value.trim(), Math.min(p, certainty.get(span.value.trim()) ?? 1))
  }
  return certainty
}

/** The certainties of several answers as one: each literal at its lowest. */
export const mergeCertainty = (
  maps: ReadonlyArray<ReadonlyMap<string, number> | undefined>
): ReadonlyMap<string, number> | undefined => {
  const present = maps.filter((m): m is ReadonlyMap<string, number> => m !== undefined)
  if (present.length === 0) return undefined
  const merged = new Map<string, number>()
  for (const map of present) for (const [literal, p] of map) merged.set(literal, Math.min(p, merged.get(literal) ?? 1))
  return merged
}
