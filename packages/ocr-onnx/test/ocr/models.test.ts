/**
 * Which recognizer the engine loads: the Latin head on PP-OCRv4 by default, PP-OCRv4's Chinese one on request, and a
 * recognizer dropped in by path as it is (the built-in head is not grafted onto someone else's model).
 */
import { describe, expect, it } from "@effect/vitest"
import { chineseModels, latinModels, recognizerConfig, resolveModels } from "../../src/internal/ocr/engine.js"

describe("resolveModels", () => {
  it("defaults to the Latin recognizer: PP-OCRv4 files, the Latin head and dictionary", () => {
    const models = resolveModels(undefined)
    expect(models).toEqual(latinModels())
    expect(models.recognition).toBe(chineseModels().recognition)
    expect(models.recognitionHead).toMatch(/models\/latin_head\.bin$/)
    expect(models.dictionary).toMatch(/models\/latin_dict\.txt$/)
    // Spaces from the model's space probability; the column-gap rule off.
    expect(recognizerConfig(models)).toEqual({ spaceGap: Number.POSITIVE_INFINITY, spaceProb: 0.1 })
  })

  it("selects PP-OCRv4's Chinese recognizer as shipped, with its own thresholds", () => {
    const models = resolveModels("chinese")
    expect(models).toEqual(chineseModels())
    expect(models.recognitionHead).toBeUndefined()
    expect(recognizerConfig(models)).toEqual({})
  })

  it("runs a recognizer or dictionary given by path as it is, unless a head is given with it", () => {
    expect(resolveModels(undefined, { recognition: "/m/rec.onnx", dictionary: "/m/dict.txt" })).toEqual({
      ...chineseModels(),
      recognition: "/m/rec.onnx",
      dictionary: "/m/dict.txt",
      recognitionHead: undefined,
      // The built-in int8 calibration belongs to the built-in recognizer, not to one dropped in.
      recognitionRanges: undefined
    })
    expect(chineseModels().recognitionRanges).toMatch(/models\/rec_int8\.ranges\.json$/)
    expect(resolveModels(undefined, { dictionary: "/m/d.txt", recognitionHead: "/m/h.bin" }).recognitionHead).toBe(
      "/m/h.bin"
    )
    // A head over another dictionary is not the Latin one: the Latin thresholds do not apply to it.
    expect(recognizerConfig(resolveModels(undefined, { dictionary: "/m/d.txt", recognitionHead: "/m/h.bin" }))).toEqual(
      {}
    )
    // Another head over the Latin dictionary (a candidate from tools/ocr-training) reads with the Latin thresholds.
    expect(recognizerConfig(resolveModels(undefined, { recognitionHead: "/m/candidate.bin" }))).toEqual({
      spaceGap: Number.POSITIVE_INFINITY,
      spaceProb: 0.1
    })
    // Only the detector replaced: the Latin recognizer stays.
    expect(resolveModels(undefined, { detection: "/m/det.onnx" }).recognitionHead).toBe(latinModels().recognitionHead)
  })
})
