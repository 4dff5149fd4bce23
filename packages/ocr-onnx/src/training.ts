/**
 * What the recognizer's training and calibration tools (`tools/ocr-training`) use of the engine: the head file
 * format and the graph edits that read, graft and expose layers, the pipeline's own stages (render, detection,
 * crop, CTC decoding) so that training sees what inference sees, and the int8 calibration format. Not for
 * embedders (the reader is `OnnxReader`), and no promise of stability beyond this repository.
 */
import * as Path from "node:path"
import { latinModels } from "./internal/ocr/engine.js"

export { defaultLimits } from "./internal/mupdf/limits.js"
export { openDocument, withPage } from "./internal/mupdf/open.js"
export { renderForOcr } from "./internal/mupdf/render.js"
export { boxRect, type OrientedBox, type Rect } from "./internal/ocr/box.js"
export { defaultOcrConfig, type OcrConfig } from "./internal/ocr/config.js"
export { cropLine, type LineCrop } from "./internal/ocr/crop.js"
export { ctcDecode, modelSpaces, parseDictionary } from "./internal/ocr/ctc.js"
export { dbPostprocess } from "./internal/ocr/dbPostprocess.js"
export { chineseModels, latinModels, makeEngine, modelBytes, type Tensor } from "./internal/ocr/engine.js"
export { exposeOutput, findHead, graftHead, inspect, readHead } from "./internal/ocr/graphEdits.js"
export { decodeHead, encodeHead, type HeadWeights } from "./internal/ocr/headFile.js"
export type { PageImage } from "./internal/ocr/image.js"
export { readGraph } from "./internal/ocr/onnxGraph.js"
export { type OcrPage, recognizePage } from "./internal/ocr/pipeline.js"
export { preprocess } from "./internal/ocr/preprocess.js"
export { calibrationTensors, encodeRanges, type Range } from "./internal/ocr/quantize.js"

/** The files of `models/` the tools read and write: the dictionary, the trained and the shipped head, int8 ranges. */
export const modelFiles = () => {
  const latin = latinModels()
  const head = latin.recognitionHead!
  return {
    dictionary: latin.dictionary,
    trainedHead: Path.join(Path.dirname(head), "latin_head.trained.bin"),
    head,
    ranges: latin.recognitionRanges!
  }
}
