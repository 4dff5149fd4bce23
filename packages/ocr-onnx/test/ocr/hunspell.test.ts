/** The expansion of Hunspell lists that nspell expands too slowly: affix rules applied to stems, letters only. */

import { describe, expect, it } from "@effect/vitest"
import { expandHunspell, inputConversions } from "../../src/internal/ocr/hunspell.js"

const sorted = (words: ReadonlyArray<string>) => [...words].sort()

describe("expandHunspell", () => {
  it("applies suffixes by their strip and condition, their continuation suffixes, and prefixes crossed with them", () => {
    const aff = [
      "SET UTF-8",
      "NEEDAFFIX X",
      "SFX S Y 2",
      "SFX S 0 s [^os]",
      "SFX S ão ões/P ão",
      "SFX P N 1",
      "SFX P 0 zinhas .",
      "PFX R Y 1",
      "PFX R 0 re .",
      "SFX A N 1",
      "SFX A o a/X o"
    ].join("\n")
    const dic = ["4", "canção/SR", "gás/S", "menino/A", "mais"].join("\n")
    expect(sorted(expandHunspell(aff, dic))).toEqual(
      sorted(["canção", "canções", "cançõeszinhas", "recanção", "recanções", "gás", "menino", "mais"])
    )
  })

  it("reads two-character flags, skips stems that need an affix and forms that are not runs of letters", () => {
    const aff = [
      "FLAG long",
      "NEEDAFFIX ()",
      "PFX L' Y 1",
      "PFX L' 0 l' .",
      "SFX S. Y 1",
      "SFX S. 0 s [^sxz]",
      "SFX E. Y 1",
      "SFX E. e ée [^é]e"
    ].join("\n")
    const dic = ["3", "pâte/S.L'", "entre/E.()", "1er"].join("\n")
    expect(sorted(expandHunspell(aff, dic))).toEqual(sorted(["pâte", "pâtes", "entrée"]))
  })
})

describe("inputConversions", () => {
  it("reads the ICONV lines that turn letters into letters, in order (the Dutch list's ĳ), and no others", () => {
    const aff = [
      "SET UTF-8",
      "ICONV 4",
      "ICONV ’ '",
      "ICONV ij ĳ",
      "ICONV IJ Ĳ",
      "ICONV ﬃ ffi",
      "OCONV 1",
      "OCONV ĳ ij"
    ]
    expect(inputConversions(aff.join("\n"))).toEqual([
      ["ij", "ĳ"],
      ["IJ", "Ĳ"],
      ["ﬃ", "ffi"]
    ])
  })
})
