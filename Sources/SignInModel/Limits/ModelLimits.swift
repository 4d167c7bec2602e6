/// The documented limits a model file must stay within. Each is checked while the model loads,
/// before anything can grow without bound, and a model past one is refused with an error that
/// names the limit and the place (exit 2), never a crash or a hang.
public enum ModelLimits {
  /// Largest model file read, in bytes (4 MiB).
  public static let maxFileBytes = 4 * 1024 * 1024
  /// Most values one `LOW..HIGH` range may hold; larger integer domains are refused.
  public static let maxRangeValues = 4_096
  /// Every integer a model writes, every domain bound and every value an expression can take
  /// (computed from the declared domains) lies in this range, so evaluation never overflows and
  /// both engines (64-bit integers, Z3's unbounded integers) compute the same values.
  public static let integers = -2_147_483_648...2_147_483_647
  /// Deepest nesting in one expression: parentheses, `!`, operators, definitions expanded.
  public static let maxExpressionDepth = 200
  /// Most nodes in one expression after definitions and `offered(…)` are expanded.
  public static let maxExpressionNodes = 100_000
  /// Deepest nesting of YAML collections (mappings and sequences).
  public static let maxYAMLDepth = 200
  /// Most YAML aliases (`*name`) in one file.
  public static let maxYAMLAliases = 1_000
  /// Most YAML nodes in the document with every alias expanded.
  public static let maxYAMLNodes = 1_000_000
  /// Most errors printed for one file; the rest are counted.
  public static let maxDiagnostics = 50
}
