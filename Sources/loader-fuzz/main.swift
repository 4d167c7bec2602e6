// loader-fuzz: the long loader fuzz run (`make fuzz-loader`). Loads mutated copies of the shipped
// models in process, then runs a sample through the real binary in child processes with a time
// limit to check that no input ends in a signal. Exit 1 on any failure.
import Foundation
import LoaderFuzzing

let usage = """
  usage: loader-fuzz [--inputs N] [--seed S] [--binary PATH] [--sample-every K] [--models DIR]
    --inputs N        mutated models to load in process (default 100000, 1 ... 10000000)
    --seed S          the mutator's seed (default 2026, 0 ... 2^64-1)
    --binary PATH     the signin-spec binary for the sample (default .build/release/signin-spec)
    --sample-every K  every K-th input also through the binary (default 500, 1 ... 10000000)
    --models DIR      the models to mutate (default models)
  exit: 0 no failure, 1 a failure (a signal, a hang, a rejection without a line), 64 bad usage
  """

/// Exit 64 naming the option, as the product's commands do.
func usageError(_ message: String) -> Never {
  FileHandle.standardError.write(Data("loader-fuzz: \(message)\n\(usage)".utf8))
  exit(64)
}

let known: Set<String> = ["--inputs", "--seed", "--binary", "--sample-every", "--models"]
var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let key = arguments.next() {
  if key == "--help" || key == "-h" {
    print(usage, terminator: "")
    exit(0)
  }
  guard known.contains(key) else { usageError("unknown option '\(key)'") }
  guard let value = arguments.next() else { usageError("\(key) needs a value") }
  options[key] = value
}

/// The integer value of `option` within `range`, or its default.
func number(_ option: String, _ options: [String: String], default value: Int, in range: ClosedRange<Int>) -> Int {
  guard let text = options[option] else { return value }
  guard let n = Int(text), range.contains(n) else {
    usageError("\(option) must be an integer in \(range.lowerBound) ... \(range.upperBound), not '\(text)'")
  }
  return n
}

let inputs = number("--inputs", options, default: 100_000, in: 1...10_000_000)
let sampleEvery = number("--sample-every", options, default: 500, in: 1...10_000_000)
let seed: UInt64
if let text = options["--seed"] {
  guard let s = UInt64(text) else { usageError("--seed must be an integer in 0 ... 2^64-1, not '\(text)'") }
  seed = s
} else {
  seed = 2026
}
let binary = options["--binary"] ?? ".build/release/signin-spec"
let folder = options["--models"] ?? "models"

let models = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".yaml") }
  .sorted().compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
guard !models.isEmpty else {
  FileHandle.standardError.write(Data("loader-fuzz: no models in \(folder)\n".utf8))
  exit(1)
}
let run = LoaderFuzzRun(models: models, limitSeconds: 2)
let figures = run.run(seed: seed, inputs: 0..<inputs)

// A sample through the real binary: exit 0 or 2, never a signal, within 20 s.
var signals: [String] = []
var sampled = 0
let mutator = ModelTextMutator(models: models)
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loader-fuzz-\(getpid())")
try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
for index in stride(from: 0, to: inputs, by: sampleEvery) {
  let file = directory.appendingPathComponent("input-\(index).yaml")
  try? Data(mutator.input(seed: seed, index: index).bytes).write(to: file)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = ["list", file.path]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch {
    signals.append("cannot run \(binary): \(error)")
    break
  }
  let deadline = Date().addingTimeInterval(20)
  while process.isRunning && Date() < deadline { usleep(10_000) }
  if process.isRunning {
    process.terminate()
    signals.append("input \(index): still running after 20 s")
  } else if process.terminationReason == .uncaughtSignal {
    signals.append("input \(index): signal \(process.terminationStatus)")
  } else if ![0, 2].contains(process.terminationStatus) {
    signals.append("input \(index): exit \(process.terminationStatus)")
  }
  sampled += 1
  try? FileManager.default.removeItem(at: file)
}
try? FileManager.default.removeItem(at: directory)

print("loader fuzz: seed \(seed), \(figures.inputs) inputs in \(String(format: "%.1f", figures.totalSeconds)) s")
print("  loaded: \(figures.loaded), rejected: \(figures.inputs - figures.loaded)")
for (kind, n) in figures.rejectionsByKind.sorted(by: { $0.value > $1.value }) { print("    \(kind): \(n)") }
print(
  String(
    format: "  slowest input: #%d (%@), %.3f s", figures.slowestInput,
    figures.slowestKinds.map(\.rawValue).joined(separator: ", "), figures.slowestSeconds))
print("  through the binary: \(sampled) inputs, \(signals.count) signals, hangs or unexpected exits")
for failure in figures.failures.prefix(20) + signals.prefix(20) { print("  FAIL \(failure)") }
exit(figures.failures.isEmpty && signals.isEmpty ? 0 : 1)
