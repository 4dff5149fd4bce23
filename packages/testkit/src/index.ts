/** Partial fakes of ports whose missing methods die loudly, naming themselves. */
export * as Fake from "./Fake.js"
/** A fake Anthropic Messages API on loopback, scripted per request, recording every request. */
export * as FakeAnthropic from "./FakeAnthropic.js"
/** A fake OpenAI-compatible Chat Completions API on loopback, scripted per request, recording every request. */
export * as FakeOpenAI from "./FakeOpenAI.js"
/** What the fake provider servers share: the scripted `Server` and the `RecordedRequest`s it keeps. */
export * as FakeServer from "./FakeServer.js"
/** Deterministic fixtures: clients, users, keys, an invoice skill, a catalog, extraction records. */
export * as Fixtures from "./Fixtures.js"
/** In-memory implementations of every storage port, over one shared state. */
export * as Memory from "./Memory.js"
/** Deterministic UUID sequences and `IdGenerator` layers. */
export * as TestIds from "./TestIds.js"
/** Fixed instants and `TestClock` helpers. */
export * as TestTime from "./TestTime.js"
