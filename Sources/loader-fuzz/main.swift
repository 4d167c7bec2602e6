// loader-fuzz: the long loader fuzz run (`make fuzz-loader`). Loads mutated copies of the shipped
// models in process, then runs a sample through the real binary in child processes with a time
// limit to check that no input ends in a signal. Exit 1 on any failure.
import Foundation
import LoaderFuzzing

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let key = arguments.next() { options[key] = arguments.next() ?? "" }
let inputs = Int(options["--inputs"] ?? "") ?? 100_000
let seed = UInt64(options["--seed"] ?? "") ?? 2026
let binary = options["--binary"] ?? ".build/release/signin-spec"
let sampleEvery = max(1, Int(options["--sample-every"] ?? "") ?? 500)
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
