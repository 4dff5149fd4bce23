/**
 * Read documents built in the tests: rows of cells placed at given x positions, words boxed at a fixed font size
 * (10 pt: 5 pt per character, 12 pt tall, 16 pt between rows), so layout rules see realistic geometry.
 */
import type { Document, Extractor, Skill } from "@legible/core"

/** A cell: its left edge (points) and its text. */
export type Cell = readonly [x: number, text: string]

const CHAR = 5
const HEIGHT = 12

/** A page from rows of cells; `top` is the first row's y, rows are 16 pt apart unless a row gives its own y. */
export const page = (
  number: number,
  rows: ReadonlyArray<ReadonlyArray<Cell> | { readonly y: number; readonly cells: ReadonlyArray<Cell> }>,
  top = 40
): Document.ReadPage => {
  let counter = 0
  const lines = rows.map((row, index): Document.ReadLine => {
    const cells = "cells" in row ? row.cells : row
    const y = "cells" in row ? row.y : top + index * 16
    const words = cells.flatMap(([x, text]) => {
      let cursor = x
      return text
        .split(" ")
        .filter((w) => w !== "")
        .map((word): Document.ReadWord => {
          const box = { x0: cursor, x1: cursor + word.length * CHAR }
          cursor = box.x1 + CHAR
          counter += 1
          return { id: `p${number}w${counter}`, word, ...box, y0: y, y1: y + HEIGHT, page: number, confidence: 1 }
        })
    })
    return { words }
  })
  const markdown = lines.map((l) => l.words.map((w) => w.word).join(" ")).join("\n")
  return { page: number, width: 595, height: 842, source: "text", lines, markdown: `# Page ${number}\n${markdown}` }
}

/** A document of pages, with optional page images (`imageBytes` bytes each, filled with the page number). */
export const document = (
  pages: ReadonlyArray<Document.ReadPage>,
  options: { readonly imageBytes?: number; readonly mimeType?: string } = {}
): Document.ReadDocument => ({
  mimeType: options.mimeType ?? "application/pdf",
  numPages: pages.length,
  pages,
  fullText: pages.map((p) => p.lines.map((l) => l.words.map((w) => w.word).join(" ")).join("\n")).join("\n\n"),
  images:
    options.imageBytes === undefined
      ? []
      : pages.map((p) => ({
          page: p.page,
          mimeType: "image/png" as const,
          bytes: new Uint8Array(options.imageBytes ?? 0).fill(p.page),
          width: 1000,
          height: 1400
        }))
})

/** A one-page Spanish invoice, with its table of lines. */
export const invoicePage = (extra: ReadonlyArray<ReadonlyArray<Cell>> = []): Document.ReadPage =>
  page(1, [
    [[40, "Suministros Acme S.L."]],
    [[40, "Calle Mayor 12, 28013 Madrid"]],
    [[40, "CIF: B12345674"]],
    [],
    [
      [40, "Nº Factura:"],
      [140, "F-2026/0042"],
      [340, "Fecha:"],
      [400, "12/03/2026"]
    ],
    [[40, "Cliente: Papelería Globex S.A."]],
    ...extra,
    [],
    [
      [40, "Concepto"],
      [300, "Unidades"],
      [420, "Importe"]
    ],
    [
      [40, "Papel A4 80 g"],
      [300, "10"],
      [420, "45,00"]
    ],
    [
      [40, "Tóner negro"],
      [300, "2"],
      [420, "1.100,00"]
    ],
    [[40, "alta capacidad"]],
    [],
    [
      [300, "Base imponible"],
      [420, "1.145,00"]
    ],
    [
      [300, "IVA 21%"],
      [420, "240,45"]
    ],
    [
      [300, "Total factura"],
      [420, "1.385,45 €"]
    ]
  ])

/** An extraction request for `skill` over `doc`. */
export const request = (
  skill: Skill.Skill,
  doc: Document.ReadDocument,
  overrides: Partial<Extractor.ExtractRequest> = {}
): Extractor.ExtractRequest => ({
  skill,
  document: doc,
  original: new TextEncoder().encode("%PDF-1.7 fake original"),
  mode: "ocr_only",
  model: "claude-sonnet-4-6",
  ...overrides
})

/** A simple field of a skill, with no aliases (and no description unless given). */
export const simpleField = (name: string, type: Skill.SkillField["type"], description = ""): Skill.SkillField => ({
  name,
  order: 1,
  type,
  isList: false,
  description,
  aliases: []
})

/** A list of line items with the four usual sub-fields (description, quantity, unit price, line total). */
export const ITEMS: Skill.SkillField = {
  ...simpleField("items", "object"),
  isList: true,
  fields: [
    simpleField("description", "string"),
    simpleField("quantity", "float"),
    simpleField("unit_price", "float"),
    simpleField("line_total", "float")
  ]
}
