import { assert, describe, it } from "@effect/vitest"
import { type BoxedWord, toMarkdown } from "../../src/internal/markdown.js"
import { invoice, truthOf } from "../support/synthetic.js"

// A line at baseline `y` (height 10) of cells placed at x: words 5 units wide per character plus 3 between words.
const line = (y: number, ...cells: ReadonlyArray<readonly [x: number, text: string]>) => {
  const words: Array<BoxedWord> = []
  for (const [x, text] of cells) {
    let at = x
    for (const word of text.split(" ")) {
      words.push({ word, x0: at, y0: y - 10, x1: at + word.length * 5, y1: y })
      at += word.length * 5 + 3
    }
  }
  return { words }
}

describe("toMarkdown", () => {
  it("plain lines one per line, words joined by a space; a paragraph gap gives a blank line", () => {
    const md = toMarkdown([
      line(20, [0, "Forma de pago: transferencia"]),
      line(32, [0, "IBAN: ES91 2100"]),
      line(70, [0, "Gracias"])
    ])
    assert.strictEqual(md, "Forma de pago: transferencia\nIBAN: ES91 2100\n\nGracias")
  })

  it("rows whose cells line up in columns become a table with a header separator; gaps fill empty cells", () => {
    const md = toMarkdown([
      line(20, [0, "Descripción"], [100, "Cantidad"], [160, "Importe"]),
      line(32, [0, "Tornillos de acero"], [110, "100"], [165, "15,00 €"]),
      line(44, [0, "Portes"], [165, "5,00 €"])
    ])
    assert.strictEqual(
      md,
      [
        "| Descripción | Cantidad | Importe |",
        "| --- | --- | --- |",
        "| Tornillos de acero | 100 | 15,00 € |",
        "| Portes |  | 5,00 € |"
      ].join("\n")
    )
  })

  it("a table stands apart from the text around it", () => {
    const md = toMarkdown([
      line(20, [0, "Líneas"]),
      line(32, [0, "a"], [100, "1"]),
      line(44, [0, "b"], [100, "2"]),
      line(56, [0, "Fin"])
    ])
    assert.strictEqual(md, "Líneas\n\n| a | 1 |\n| --- | --- |\n| b | 2 |\n\nFin")
  })

  it("one line with far-apart cells is not a table: its cells are kept apart by three spaces", () => {
    assert.strictEqual(
      toMarkdown([line(20, [0, "Fecha: 12/03/2024"], [200, "Vencimiento: 11/04/2024"])]),
      "Fecha: 12/03/2024   Vencimiento: 11/04/2024"
    )
  })

  it("cells that do not line up (one spans two columns of the other row) are no table", () => {
    const md = toMarkdown([line(20, [0, "a"], [50, "b"]), line(32, [0, "a long cell spanning"], [150, "c"])])
    assert.strictEqual(md, "a   b\na long cell spanning   c")
  })

  it("escapes | and \\ inside cells", () => {
    const md = toMarkdown([line(20, [0, "a|b"], [100, "c\\d"]), line(32, [0, "e"], [100, "f"])])
    assert.strictEqual(md.split("\n")[0], "| a\\|b | c\\\\d |")
  })

  it("a line starting above the previous one (a new column) starts a new paragraph; empty input is empty", () => {
    assert.strictEqual(toMarkdown([line(100, [0, "abajo"]), line(20, [300, "arriba"])]), "abajo\n\narriba")
    assert.strictEqual(toMarkdown([]), "")
    assert.strictEqual(toMarkdown([{ words: [] }]), "")
  })

  it("the synthetic invoice (ground-truth boxes): header lines, the lines table and the totals table", () => {
    assert.strictEqual(
      toMarkdown(truthOf(invoice).lines.map((words) => ({ words }))),
      [
        "FACTURA Nº 2024-0042",
        "Fecha: 12/03/2024   Vencimiento: 11/04/2024",
        "",
        "Emisor: Distribuciones Martínez S.L.",
        "CIF: B-12345678",
        "Calle Mayor 15, 28013 Madrid",
        "",
        "Cliente: Café Rincón Andaluz S.A.",
        "CIF: A-87654321",
        "Avenida de la Constitución 7, 41004 Sevilla",
        "Número de pedido: PED-7781",
        "",
        "| Descripción | Cantidad | Precio | Importe |",
        "| --- | --- | --- | --- |",
        "| Tornillos de acero inoxidable | 100 | 0,15 € | 15,00 € |",
        "| Piñones de latón | 50 | 0,20 € | 10,00 € |",
        "| Arandelas planas | 200 | 0,05 € | 10,00 € |",
        "| Llave inglesa ajustable | 2 | 12,50 € | 25,00 € |",
        "",
        "| Base imponible: | 60,00 € |",
        "| --- | --- |",
        "| IVA (21%): | 12,60 € |",
        "| Total: | 72,60 € |",
        "",
        "Forma de pago: transferencia bancaria",
        "IBAN: ES91 2100 0418 4502 0005 1332"
      ].join("\n")
    )
  })
})
