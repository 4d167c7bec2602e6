import ArgumentParser
import Evolution
import Foundation
import SignInModel

/// `--jobs` and `--buffered-classes` of `diff` and `lint`: how many threads explore the
/// configuration classes, and how far ahead of the one thread that reads them.
struct ClassThreadOptions: ParsableArguments {
  @Option(
    help: """
      Threads exploring the configuration classes (1 to 256; default, and the most that run: \
      the number of cores); the report is the same for any number.
      """)
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  @Option(
    help: """
      With more than one thread, the most configuration classes explored ahead of the report \
      (1 to 1000000): each holds about 80 KB on the 2026 model; fewer keep the threads waiting.
      """)
  var bufferedClasses: Int = ClassExplorer.defaultBufferedClasses

  func validate() throws {
    try OptionChecks.range(jobs, 1...OptionChecks.maxJobs, "--jobs")
    try OptionChecks.range(bufferedClasses, 1...1_000_000, "--buffered-classes")
  }

  /// A copy of `models` per thread the cores can run at once (none for one thread); none when a
  /// model cannot be copied (a git revision, or one past `ModelLoader.copyRuleLimit`), and then
  /// the classes are explored on one thread.
  func copies(of models: [SignInModel]) -> [[SignInModel]] {
    let threads = min(jobs, ProcessInfo.processInfo.activeProcessorCount)
    var copies: [[SignInModel]] = []
    for _ in 0..<(threads > 1 ? threads : 0) {
      var copy: [SignInModel] = []
      for model in models {
        guard let c = ModelLoader.copyForThread(model) else { return [] }
        copy.append(c)
      }
      copies.append(copy)
    }
    return copies
  }
}
