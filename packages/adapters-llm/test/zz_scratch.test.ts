import { it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import * as Local from "../src/Local.js"
import { document, invoicePage } from "./support/documents.js"

it("print", () => {
  console.log(JSON.stringify(Local.extractFields(Fixtures.skill().fields, document([invoicePage()])), null, 1))
})
