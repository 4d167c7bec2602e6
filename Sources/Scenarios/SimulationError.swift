/// Why a simulation cannot run as asked: bad usage of `simulate` (exit 64), or a scenario
/// that asks for something the model does not have.
public struct SimulationError: Error, Equatable, CustomStringConvertible {
  public let message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
