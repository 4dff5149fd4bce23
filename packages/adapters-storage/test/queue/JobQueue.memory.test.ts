import { describe } from "@effect/vitest"
import { contract } from "./contract.js"
import * as Memory from "./memory.js"

describe("Memory JobQueue", () => {
  contract("in memory", Memory.queue)
})
