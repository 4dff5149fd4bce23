import { describe } from "@effect/vitest"
import { postgres } from "../support/databases.js"
import { workerSuite } from "./workerSuite.js"

describe("Worker on SqlJobQueue", () => {
  workerSuite("on PostgreSQL", postgres)
})
