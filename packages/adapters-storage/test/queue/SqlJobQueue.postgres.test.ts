import { describe } from "@effect/vitest"
import { postgres } from "../support/databases.js"
import { contract } from "./contract.js"

describe("SqlJobQueue", () => {
  contract("on PostgreSQL", postgres)
})
