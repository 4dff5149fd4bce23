import { randomUUID } from "node:crypto"
import { Context } from "effect"

/** Where new ids come from: random UUIDs by default; the testkit provides fixed sequences. */
export const IdGenerator = Context.Reference<{ readonly uuid: () => string }>("@legible/core/IdGenerator", {
  defaultValue: () => ({ uuid: () => randomUUID() })
})
