/** In-memory implementations of every storage port, over one shared state. */
export * as Memory from "./Memory.js"
