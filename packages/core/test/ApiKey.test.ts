import { assert, describe, it } from "@effect/vitest"
import { ApiKey } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Arbitrary, Schema } from "effect"
import { seeded } from "./support.js"

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const FORMAT = /^pk_(live|test)_[A-Za-z0-9]+$/

/** A byte source that replays `stream` forever, `size` bytes per call, counting the calls. */
const replay = (stream: ReadonlyArray<number>) => {
  let position = 0
  const source = (size: number): Uint8Array => {
    source.calls++
    const out = new Uint8Array(size)
    for (let i = 0; i < size; i++) out[i] = stream[position++ % stream.length]!
    return out
  }
  source.calls = 0
  return source
}

/** The secret a uniform rejection sampler makes of a byte stream: bytes ≥ 248 skipped, the rest mod 62. */
const model = (stream: ReadonlyArray<number>): string => {
  let out = ""
  for (let i = 0; out.length < ApiKey.SECRET_LENGTH; i++) {
    const byte = stream[i % stream.length]!
    if (byte < 248) out += ALPHABET[byte % 62]
  }
  return out
}

const Byte = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))
/** Byte streams with at least one accepted byte, so a generator fed with them terminates. */
const Stream = Arbitrary.schema(Schema.NonEmptyArray(Byte)).pipe(
  Arbitrary.filter((bytes) => bytes.some((b) => b < 248))
)
const Secret = Schema.String.check(Schema.isPattern(/^[0-9A-Za-z]{43}$/))

describe("ApiKey.generate", () => {
  for (const tipo of ApiKey.KeyType.literals) {
    it(`${tipo} keys have the format, ≥128 bits and 1,000 of them are distinct`, () => {
      const keys = Array.from({ length: 1_000 }, () => ApiKey.generate(tipo))
      for (const key of keys) {
        assert.match(key, FORMAT)
        assert.isTrue(key.startsWith(`pk_${tipo}_`))
        assert.isTrue(ApiKey.isWellFormed(key))
        assert.strictEqual(ApiKey.typeOf(key), tipo)
        const secret = key.slice(`pk_${tipo}_`.length)
        assert.isAtLeast(secret.length * Math.log2(62), 128)
      }
      assert.strictEqual(new Set(keys).size, keys.length)
    })
  }

  it("characters are uniform over the alphabet (chi-square over 86,000 characters)", () => {
    const counts = new Map<string, number>(Array.from(ALPHABET, (c) => [c, 0]))
    let total = 0
    for (let i = 0; i < 2_000; i++) {
      for (const c of ApiKey.generate("live").slice("pk_live_".length)) {
        counts.set(c, (counts.get(c) ?? 0) + 1)
        total++
      }
    }
    const expected = total / 62
    let chiSquare = 0
    for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected
    // 61 degrees of freedom: mean 61, sd ≈ 11; 160 is > 9 sd out. A modulo-biased generator (bytes mod 62
    // without rejection) over-draws 8 characters by 25% and scores ≈ 2,000 here.
    assert.isBelow(chiSquare, 160)
    assert.strictEqual(counts.size, 62)
  })

  it("maps exactly 4 of the 256 byte values to each character and rejects the 8 biased ones", () => {
    const preimages = new Map<string, number>()
    for (let byte = 0; byte < 256; byte++) {
      let first = true
      // The first call answers `byte` everywhere, later calls answer 0 ("0"): a rejected byte yields only "0"s.
      const key = ApiKey.generate("live", (size) => {
        const out = new Uint8Array(size).fill(first ? byte : 0)
        first = false
        return out
      })
      const secret = key.slice("pk_live_".length)
      if (byte >= 248) {
        assert.strictEqual(secret, "0".repeat(43), `byte ${byte} must be rejected`)
      } else {
        assert.strictEqual(secret, ALPHABET[byte % 62]!.repeat(43))
        preimages.set(secret[0]!, (preimages.get(secret[0]!) ?? 0) + 1)
      }
    }
    assert.strictEqual(preimages.size, 62)
    for (const [c, n] of preimages) assert.strictEqual(n, 4, `character ${c}`)
  })

  it.prop(
    "with a fake byte source the key is determined by the bytes: rejection sampling, nothing else",
    [Stream, ApiKey.KeyType],
    ([stream, tipo]) => {
      const first = ApiKey.generate(tipo, replay(stream))
      const second = ApiKey.generate(tipo, replay(stream))
      assert.strictEqual(first, second)
      assert.strictEqual(first, `pk_${tipo}_${model(stream)}`)
    },
    seeded(101)
  )
})

describe("ApiKey.hash", () => {
  it("is SHA-256 in lower-case hex (known answers)", () => {
    assert.strictEqual(ApiKey.hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert.strictEqual(ApiKey.hash(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert.strictEqual(ApiKey.hash(Fixtures.LIVE_KEY), Fixtures.LIVE_KEY_HASH)
    assert.strictEqual(ApiKey.hash(Fixtures.TEST_KEY), Fixtures.TEST_KEY_HASH)
  })

  it.prop(
    "is stable, 64 hex characters, and differs between keys",
    [Secret, Secret, ApiKey.KeyType],
    ([a, b, tipo]) => {
      const ka = `pk_${tipo}_${a}`
      const kb = `pk_${tipo}_${b}`
      assert.match(ApiKey.hash(ka), /^[0-9a-f]{64}$/)
      assert.strictEqual(ApiKey.hash(ka), ApiKey.hash(ka))
      if (a !== b) assert.notStrictEqual(ApiKey.hash(ka), ApiKey.hash(kb))
    },
    seeded(102)
  )
})

describe("ApiKey.preview", () => {
  it("shows the prefix and 4 characters, an ellipsis and the last 4", () => {
    assert.strictEqual(ApiKey.preview(Fixtures.LIVE_KEY), "pk_live_BmNy…S3eF")
  })

  it.prop(
    "never reveals the middle of a key and is shorter than it",
    [Secret, ApiKey.KeyType],
    ([secret, tipo]) => {
      const prefix = `pk_${tipo}_`
      const key = `${prefix}${secret}`
      const preview = ApiKey.preview(key)
      const middle = key.slice(prefix.length + 4, -4)
      assert.isBelow(preview.length, key.length)
      assert.isFalse(preview.includes(middle))
      assert.isTrue(preview.startsWith(key.slice(0, prefix.length + 4)))
      assert.isTrue(preview.endsWith(`…${key.slice(-4)}`))
      // At most 8 characters of the secret are shown.
      assert.isAtMost(preview.length - prefix.length - "…".length, 8)
    },
    seeded(103)
  )
})

describe("ApiKey.isWellFormed", () => {
  it("accepts only the prefix, a type and 43 base62 characters", () => {
    assert.isTrue(ApiKey.isWellFormed(Fixtures.LIVE_KEY))
    assert.isTrue(ApiKey.isWellFormed(Fixtures.TEST_KEY))
    for (const bad of [
      "",
      "pk_live_",
      Fixtures.LIVE_KEY.slice(0, -1),
      `${Fixtures.LIVE_KEY}A`,
      Fixtures.LIVE_KEY.replace("pk_live_", "pk_prod_"),
      Fixtures.LIVE_KEY.replace("pk_live_", "PK_LIVE_"),
      `${Fixtures.LIVE_KEY.slice(0, -1)}ñ`,
      `${Fixtures.LIVE_KEY.slice(0, -1)}-`,
      ` ${Fixtures.LIVE_KEY}`,
      `${Fixtures.LIVE_KEY}\n`
    ]) {
      assert.isFalse(ApiKey.isWellFormed(bad), JSON.stringify(bad))
    }
  })
})
