import Dispatch
import Foundation

/// The progress line of a Z3 run: on standard error, only when it is a terminal and `CI` is
/// unset, shown once the run has taken a second and rewritten once a second after that with
/// the model and the property being proven.
final class Z3Progress: @unchecked Sendable {
  private let model: String
  private let lock = NSLock()
  private var label = "starting"
  private var shown = false
  private let start = DispatchTime.now()
  private let timer: DispatchSourceTimer

  /// A progress line for `model`, or nil when no line should be shown.
  static func terminalLine(_ model: String) -> Z3Progress? {
    SearchProgress.enabled ? Z3Progress(model) : nil
  }

  private init(_ model: String) {
    self.model = model
    timer = DispatchSource.makeTimerSource(queue: .global())
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.setEventHandler { [weak self] in self?.draw() }
    timer.resume()
  }

  /// Called by the checker before each property.
  func proving(_ property: String) {
    lock.lock()
    defer { lock.unlock() }
    label = property
  }

  private func draw() {
    lock.lock()
    defer { lock.unlock() }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    shown = true
    let line = String(format: "\r\u{1B}[K  %@: Z3 proving %@ (%.0f s)", model, label, seconds)
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// Stops the line and clears it if it was drawn.
  func finish() {
    timer.cancel()
    lock.lock()
    defer { lock.unlock() }
    if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    shown = false
  }
}
