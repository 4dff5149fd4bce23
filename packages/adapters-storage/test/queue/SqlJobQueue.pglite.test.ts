import { describe } from "@effect/vitest"
import { pglite } from "../support/databases.js"
import { contract } from "./contract.js"

describe("SqlJobQueue", () => {
  contract("on PGlite", pglite)
})
