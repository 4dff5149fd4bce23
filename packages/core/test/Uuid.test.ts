import { assert, describe, it } from "@effect/vitest"
import { Uuid } from "@legible/core"
import { Schema } from "effect"

describe("Uuid", () => {
  it("accepts the 8-4-4-4-12 hexadecimal shape in either case, whatever its version", () => {
    assert.isTrue(Uuid.isUuid("123e4567-e89b-42d3-a456-426614174000"))
    assert.isTrue(Uuid.isUuid("123E4567-E89B-42D3-A456-426614174000"))
    assert.isTrue(Uuid.isUuid("00000000-0000-0000-0000-000000000000"))
    assert.isTrue(Uuid.isUuid("00000000-0000-0000-0000-0000000000c1"))
  })

  it("refuses anything else", () => {
    for (const id of [
      "",
      "123e4567e89b42d3a456426614174000",
      "{123e4567-e89b-42d3-a456-426614174000}",
      "123e4567-e89b-42d3-a456-42661417400",
      "123e4567-e89b-42d3-a456-4266141740000",
      "123e4567-e89b-42d3-a456-42661417400g",
      " 123e4567-e89b-42d3-a456-426614174000",
      "123e4567-e89b-42d3-a456-426614174000\n",
      42
    ]) {
      assert.isFalse(Uuid.isUuid(id), String(id))
    }
  })

  it("decodes as the schema of the same check", () => {
    const decode = Schema.decodeUnknownExit(Uuid.Uuid)
    assert.isTrue(decode("123e4567-e89b-42d3-a456-426614174000")._tag === "Success")
    assert.isTrue(decode("not-a-uuid")._tag === "Failure")
  })
})
