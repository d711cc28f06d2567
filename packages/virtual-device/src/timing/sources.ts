/**
 * Where the cost model's figures come from. The Appium logs are the conformance corpus's sources
 * (test/fixtures/uia2-exchange-sources.json, each at its listed commit), read again for their
 * timestamps by bench/tools/costFromLogs.ts: a UiAutomator2 request is timed from Appium's
 * `Proxying [...]` line to its `Got response` line (the server's own time), an adb shell command
 * from Appium's `Running '... shell X'` line to the log's next line (the command plus the host adb
 * client's start, so an upper bound). Nine of the listed logs carry millisecond timestamps:
 * API 30 to 36, real phones (a Redmi Note 10 Pro on API 30 among them) and emulators (a Pixel 8
 * Pro AVD on API 35), Appium 1.22 to 2.19.
 */
export const APPIUM_LOGS =
  'Appium server logs of the conformance corpus, 9 with ms timestamps, API 30-36, phones and emulators';

/** Threads with measurements, cited by address. */
export const THREADS = {
  /**
   * Stock `uiautomator dump` ~2.1-2.2 s on screens of 18-89 nodes; a UiAutomation serialiser 0.82 s
   * at 57 nodes, 1.0 s at 137 (2026, device not named).
   */
  mobilecliAgent: 'github.com/mobile-next/mobilecli/pull/286',
  /** A dump right after an activity start: 1-4 s, worst on the first (2022, phone). */
  culebraDelay: 'github.com/dtmilano/CulebraTester2-public/issues/17',
  /** `input tap`: 300-400 ms per call (2016, phone). */
  madbInput: 'github.com/quamotion/madb/issues/56',
  /** `input` starts a JVM per call; app_process start ~800 ms; `screencap` ~250 ms to capture, ~2 s with PNG encoding (2018, phone). */
  scrcpyScreencap: 'github.com/Genymobile/scrcpy/issues/112',
  /** `input tap` about 1 s and `screencap` 2-4 s, host included (2018, phone). */
  awesomeAdbSpeed: 'github.com/mzlogin/awesome-adb/issues/54',
} as const;
