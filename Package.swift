// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "signin-spec",
  products: [
    .executable(name: "signin-spec", targets: ["signin-spec"]),
    .library(name: "SignInModel", targets: ["SignInModel"]),
    .library(name: "ModelChecking", targets: ["ModelChecking"]),
  ],
  dependencies: [
    // Command-line parsing, help screens and exit codes for `signin-spec`.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // YAML parsing with line/column marks, so a malformed model names file:line.
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    // Arbitrary-precision integers for Cognito's SRP-6a (3072-bit modular arithmetic).
    .package(url: "https://github.com/attaswift/BigInt", from: "6.0.0"),
  ],
  targets: [
    // Debian's libz3-dev through its C API (pkg-config name `z3`).
    .systemLibrary(
      name: "CZ3", pkgConfig: "z3",
      providers: [.apt(["libz3-dev"])]),
    .target(name: "Z3Kit", dependencies: ["CZ3"]),
    .target(
      name: "SignInModel",
      dependencies: [.product(name: "Yams", package: "Yams")]),
    .target(name: "ModelChecking", dependencies: ["SignInModel"]),
    .target(name: "SignInClient", dependencies: ["BigInt"]),
    .target(name: "Conformance", dependencies: ["SignInClient", "SignInModel", "ModelChecking"]),
    .target(name: "Fuzzing", dependencies: ["Conformance", "SignInClient", "SignInModel", "ModelChecking"]),
    .target(name: "SymbolicChecking", dependencies: ["SignInModel", "ModelChecking", "Z3Kit"]),
    // Model evolution: structural and behavioural diff, old-client compatibility, lint.
    .target(name: "Evolution", dependencies: ["SignInModel", "ModelChecking"]),
    .target(name: "Reporting", dependencies: ["SignInModel", "ModelChecking", "SymbolicChecking"]),
    .executableTarget(
      name: "signin-spec",
      dependencies: [
        "SignInModel", "ModelChecking", "SymbolicChecking", "Reporting", "Z3Kit", "Fuzzing", "Evolution",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .testTarget(name: "SignInModelTests", dependencies: ["SignInModel"]),
    .testTarget(name: "ModelCheckingTests", dependencies: ["SignInModel", "ModelChecking", "Reporting"]),
    .testTarget(name: "Z3KitTests", dependencies: ["Z3Kit"]),
    .testTarget(name: "FuzzingTests", dependencies: ["Fuzzing", "SignInClient", "SignInModel"]),
    .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "SignInClient", "SignInModel", "ModelChecking"]),
    .testTarget(name: "SignInClientTests", dependencies: ["SignInClient", "SignInModel", "ModelChecking"]),
    .testTarget(name: "SymbolicCheckingTests", dependencies: ["SignInModel", "ModelChecking", "SymbolicChecking"]),
    .testTarget(name: "CLITests", dependencies: []),
    .testTarget(name: "EvolutionTests", dependencies: ["Evolution", "SignInModel"]),
  ]
)
