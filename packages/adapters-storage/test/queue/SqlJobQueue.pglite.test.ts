import { describe } from "@effect/vitest"
import { pglite } from "../support/databases.js"
import { contract } from "./contract.js"
import { sqlOnly } from "./sqlOnly.js"
import { queueOn } from "./support.js"

describe("SqlJobQueue", () => {
  contract("on PGlite", queueOn(pglite), sqlOnly)
})
