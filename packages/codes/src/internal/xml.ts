// A small element tree read with saxes: a strict, non-validating, streaming XML 1.0 parser (ISC, no dependency
// but xmlchars) that never reads a DTD, so no entity is ever declared or expanded — an undeclared `&lol9;` is an
// error, not an expansion. A document type declaration is refused outright: an invoice has no use for one and a
// billion-laughs or external-entity attack needs one. Limits on size (checked before parsing), depth and element
// count keep a hostile document's cost bounded; a truncated document fails saxes' end-of-input checks.
import { SaxesParser } from "saxes"
import type { ProblemKind } from "./schema.js"

/** One element: its local name and namespace, attributes by local name, children and concatenated text. */
export interface Element {
  readonly local: string
  readonly uri: string
  readonly attributes: ReadonlyMap<string, string>
  readonly children: Array<Element>
  text: string
}

export interface XmlLimits {
  /** Largest document read, in bytes (UTF-16 code units for a string); larger ones are refused unread. */
  readonly maxBytes: number
  readonly maxDepth: number
  readonly maxElements: number
}

/**
 * A 1,000-line Factur-X is ≈ 0.9 MB; 3 MiB keeps the worst case — a document truncated at its end, found only
 * there — under 0.1 s (MEASUREMENTS.md, "Hostile XML"). Callers with larger invoices pass their own limits.
 */
export const defaultLimits: XmlLimits = { maxBytes: 3 * 1024 * 1024, maxDepth: 64, maxElements: 200_000 }

export type XmlResult =
  | { readonly _tag: "Tree"; readonly root: Element }
  | { readonly _tag: "Refused"; readonly kind: ProblemKind; readonly detail: string }

class Stop extends Error {
  constructor(
    readonly kind: ProblemKind,
    detail: string
  ) {
    super(detail)
  }
}

const declaredEncoding = (head: string): string | null =>
  /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? null

/** Bytes to text: a BOM or the XML declaration's encoding, else UTF-8. */
export const textOf = (bytes: Uint8Array): { text: string } | { kind: ProblemKind; detail: string } => {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)) }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)) }
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200))
  const label = declaredEncoding(head.replace(/^\u00ef\u00bb\u00bf/, "")) ?? "utf-8"
  try {
    return { text: new TextDecoder(label, { fatal: true, ignoreBOM: false }).decode(bytes) }
  } catch {
    return { kind: "bad_encoding", detail: `not ${label} text` }
  }
}

/** Parses a whole document into a tree, or says why it would not. Never throws. */
export const parseXml = (input: string, limits: XmlLimits = defaultLimits): XmlResult => {
  if (input.length > limits.maxBytes)
    return { _tag: "Refused", kind: "too_large", detail: `${input.length} characters, over ${limits.maxBytes}` }
  const parser = new SaxesParser({ xmlns: true, position: false })
  const stack: Array<Element> = []
  let root: Element | null = null
  let elements = 0
  parser.on("doctype", () => {
    throw new Stop("doctype", "a document type declaration (refused: entity expansion)")
  })
  parser.on("error", (error) => {
    throw new Stop("malformed_xml", error.message)
  })
  parser.on("opentag", (tag) => {
    elements += 1
    if (elements > limits.maxElements) throw new Stop("too_large", `over ${limits.maxElements} elements`)
    if (stack.length >= limits.maxDepth) throw new Stop("too_deep", `deeper than ${limits.maxDepth} elements`)
    const attributes = new Map<string, string>()
    for (const attribute of Object.values(tag.attributes))
      if (attribute.prefix !== "xmlns" && attribute.name !== "xmlns") attributes.set(attribute.local, attribute.value)
    const element: Element = { local: tag.local, uri: tag.uri, attributes, children: [], text: "" }
    const parent = stack.at(-1)
    if (parent) parent.children.push(element)
    else root = element
    stack.push(element)
  })
  parser.on("closetag", () => {
    stack.pop()
  })
  const append = (text: string): void => {
    const current = stack.at(-1)
    if (current) current.text += text
  }
  parser.on("text", append)
  parser.on("cdata", append)
  try {
    parser.write(input.replace(/^\uFEFF/, "")).close()
  } catch (error) {
    if (error instanceof Stop) return { _tag: "Refused", kind: error.kind, detail: error.message }
    return { _tag: "Refused", kind: "malformed_xml", detail: error instanceof Error ? error.message : String(error) }
  }
  if (root === null) return { _tag: "Refused", kind: "malformed_xml", detail: "no root element" }
  return { _tag: "Tree", root }
}

/** The children of an element with a local name. */
export const childrenNamed = (element: Element | undefined, local: string): Array<Element> =>
  element === undefined ? [] : element.children.filter((child) => child.local === local)

/** The first element along a path of local names. */
export const at = (element: Element | undefined, ...path: ReadonlyArray<string>): Element | undefined => {
  let current = element
  for (const local of path) {
    current = current?.children.find((child) => child.local === local)
    if (current === undefined) return undefined
  }
  return current
}

/** The trimmed text along a path, or null when absent or empty. */
export const textAt = (element: Element | undefined, ...path: ReadonlyArray<string>): string | null => {
  const text = at(element, ...path)?.text.trim()
  return text === undefined || text === "" ? null : text
}
