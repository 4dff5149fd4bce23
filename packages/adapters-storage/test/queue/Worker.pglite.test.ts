import { describe } from "@effect/vitest"
import { pglite } from "../support/databases.js"
import { workerSuite } from "./workerSuite.js"

describe("Worker on SqlJobQueue", () => {
  workerSuite("on PGlite", pglite)
})
