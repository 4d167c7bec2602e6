// swift-tools-version: 6.2
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
    // SHA-1, SHA-256, HMAC and HKDF for TOTP and SRP, RSA keys for the tokens (BoringSSL on Linux).
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    // RS256 signing and the JWKS of the ID and access tokens `serve` issues: a maintained JWT
    // library rather than hand-written JOSE.
    .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    // HTTP/1.1 for `signin-spec serve`. SwiftNIO rather than Hummingbird: Hummingbird is built
    // on SwiftNIO and adds its own packages, so NIO alone is the smaller dependency.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // Debian's libz3-dev through its C API (pkg-config name `z3`).
    .systemLibrary(
      name: "CZ3", pkgConfig: "z3",
      providers: [.apt(["libz3-dev"])]),
    .target(name: "Z3Kit", dependencies: ["CZ3"]),
    // OpenSSL's libcrypto (Debian's libssl-dev, pkg-config name `libcrypto`): BN_mod_exp for SRP's
    // 3072-bit exponentiations, fifty times BigInt's speed. Foundation's networking already loads it.
    .systemLibrary(
      name: "CLibCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .target(
      name: "SignInModel",
      dependencies: [.product(name: "Yams", package: "Yams")]),
    .target(name: "ModelChecking", dependencies: ["SignInModel"]),
    // Mutants and synthetic scaling models: for the tests and `bench`, never for checking.
    .target(name: "ModelTestSupport", dependencies: ["SignInModel", "ModelChecking"]),
    // Cognito's wire protocol (AWS JSON 1.1): the backend protocol and JSON values.
    .target(name: "CognitoWire"),
    // Cognito's SRP-6a arithmetic and digests, shared by the client and the simulated pool.
    .target(
      name: "CognitoSRPMath",
      dependencies: ["BigInt", "CLibCrypto", .product(name: "Crypto", package: "swift-crypto")]),
    .target(
      name: "SignInClient",
      dependencies: ["BigInt", "CognitoSRPMath", "CognitoWire"]),
    // The in-process user pool (the fuzzer's server); it knows the wire, not the client.
    .target(name: "SimulatedCognito", dependencies: ["BigInt", "CognitoSRPMath", "CognitoWire"]),
    // `signin-spec serve`: Cognito's JSON 1.1 protocol over HTTP/1.1 in front of the pool.
    .target(
      name: "CognitoServer",
      dependencies: [
        "SimulatedCognito", "CognitoWire", "CognitoTokens",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    // Cognito's ID and access tokens (RS256 JWTs) and the pool's JWKS, for `signin-spec serve`.
    .target(
      name: "CognitoTokens",
      dependencies: [
        "CognitoWire",
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ]),
    // Deliberately broken clients, through the client's hooks: for `--client` and the tests.
    .target(name: "ClientBugs", dependencies: ["SignInClient", "CognitoWire"]),
    .target(
      name: "Conformance",
      dependencies: [
        "SignInClient", "CognitoWire", "SimulatedCognito", "SignInModel", "ModelChecking", "ClientAdapters",
      ]),
    .target(
      name: "Fuzzing",
      dependencies: [
        "Conformance", "SignInClient", "CognitoWire", "SimulatedCognito", "SignInModel", "ModelChecking", "SafeFiles",
      ]),
    // The client-adapter protocol (JSON lines over an adapter's stdin/stdout) and the process
    // that runs an adapter under a time limit; Foundation only.
    .target(name: "ClientAdapters"),
    // The fuzzer on a client behind an adapter: pools served in process over HTTP, an adapter
    // per worker.
    .target(
      name: "AdapterFuzzing",
      dependencies: [
        "ClientAdapters", "Conformance", "Fuzzing", "CognitoServer", "CognitoWire", "SimulatedCognito", "SignInModel",
      ]),
    // Recordings of Cognito sign-in requests: HAR files, serve's request log, JSON lines.
    .target(name: "Recordings", dependencies: ["CognitoWire"]),
    // `signin-spec diagnose`: which configurations of a model explain a recording.
    .target(name: "Diagnosis", dependencies: ["Recordings", "CognitoWire", "SignInModel", "ModelChecking"]),
    // The reference client as an adapter (docs/guide/adapters.md).
    .executableTarget(
      name: "signin-spec-adapter",
      dependencies: ["ClientAdapters", "ClientBugs", "SignInClient", "CognitoWire", "Conformance"]),
    // Atomic writes that replace only a regular file (every file signin-spec writes).
    .target(name: "SafeFiles"),
    // Mutated models for the loader's own fuzz test and `make fuzz-loader`.
    .target(name: "LoaderFuzzing", dependencies: ["SignInModel", "ModelChecking"]),
    .executableTarget(name: "loader-fuzz", dependencies: ["LoaderFuzzing"]),
    .target(name: "SymbolicChecking", dependencies: ["SignInModel", "ModelChecking", "Z3Kit"]),
    // Model evolution: structural and behavioural diff, old-client compatibility, lint.
    .target(name: "Evolution", dependencies: ["SignInModel", "ModelChecking"]),
    .target(
      name: "Scenarios",
      dependencies: ["SignInModel", "ModelChecking", .product(name: "Yams", package: "Yams")]),
    .target(
      name: "Reporting",
      dependencies: ["SignInModel", "ModelChecking", "SymbolicChecking", "Evolution", "DocsConformance"]),
    .target(name: "DocsConformance", dependencies: ["SignInModel", "ModelChecking"]),
    .target(name: "Diagrams", dependencies: ["SignInModel", "ModelChecking"]),
    // The self-contained HTML page of `report --html` and `verify --html`.
    .target(
      name: "HTMLReporting",
      dependencies: ["SignInModel", "ModelChecking", "SymbolicChecking", "Reporting", "Evolution", "Diagrams"]),
    .executableTarget(
      name: "signin-spec",
      dependencies: [
        "SignInModel", "ModelChecking", "SymbolicChecking", "Reporting", "Z3Kit", "Fuzzing", "ClientBugs",
        "ModelTestSupport", "SignInClient", "CognitoWire", "Scenarios", "DocsConformance", "Diagrams", "SafeFiles",
        "Evolution", "CognitoServer", "SimulatedCognito", "CognitoTokens", "AdapterFuzzing", "ClientAdapters",
        "Conformance", "Recordings", "Diagnosis", "HTMLReporting",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Yams", package: "Yams"),
      ]),
    .testTarget(name: "SignInModelTests", dependencies: ["SignInModel"]),
    .testTarget(
      name: "ModelCheckingTests", dependencies: ["SignInModel", "ModelChecking", "ModelTestSupport", "Reporting"]),
    .testTarget(name: "Z3KitTests", dependencies: ["Z3Kit", "CZ3"]),
    .testTarget(
      name: "FuzzingTests",
      dependencies: [
        "Fuzzing", "Conformance", "ClientBugs", "SignInClient", "CognitoWire", "SignInModel", "ModelChecking",
        "SimulatedCognito", "Scenarios",
      ]),
    .testTarget(
      name: "ConformanceTests",
      dependencies: ["Conformance", "SignInClient", "SimulatedCognito", "SignInModel", "ModelChecking", "Scenarios"]),
    .testTarget(
      name: "SignInClientTests",
      dependencies: [
        "SignInClient", "CognitoWire", "SimulatedCognito", "SignInModel", "ModelChecking", "CognitoSRPMath", "BigInt",
      ]),
    .testTarget(
      name: "SymbolicCheckingTests",
      dependencies: ["SignInModel", "ModelChecking", "ModelTestSupport", "SymbolicChecking", "Evolution"]),
    .testTarget(name: "CLITests", dependencies: []),
    .testTarget(name: "EvolutionTests", dependencies: ["Evolution", "SignInModel", "ModelTestSupport"]),
    .testTarget(name: "ScenariosTests", dependencies: ["Scenarios", "SignInModel"]),
    .testTarget(name: "DocsConformanceTests", dependencies: ["DocsConformance", "SignInModel", "ModelChecking"]),
    .testTarget(name: "DiagramsTests", dependencies: ["Diagrams", "SignInModel", "ModelChecking", "ModelTestSupport"]),
    .testTarget(
      name: "HTMLReportingTests",
      dependencies: ["HTMLReporting", "Diagrams", "SignInModel", "ModelChecking", "Evolution", "ModelTestSupport"]),
    .testTarget(name: "SafeFilesTests", dependencies: ["SafeFiles"]),
    .testTarget(
      name: "CognitoServerTests",
      dependencies: [
        "CognitoServer", "SimulatedCognito", "SignInClient", "CognitoWire", "CognitoSRPMath", "Conformance",
        "Fuzzing", "ClientBugs", "SignInModel",
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
      ]),
    .testTarget(
      name: "CognitoTokensTests",
      dependencies: [
        "CognitoTokens", "CognitoWire", .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "CryptoExtras", package: "swift-crypto"),
      ]),
    .testTarget(
      name: "ClientAdaptersTests",
      dependencies: [
        "ClientAdapters", "CognitoServer", "SimulatedCognito", "SignInClient", "CognitoWire", "AdapterFuzzing",
        "Conformance", "Fuzzing", "ClientBugs", "SignInModel",
      ]),
    .testTarget(name: "LoaderFuzzTests", dependencies: ["LoaderFuzzing", "SignInModel", "ModelChecking"]),
    .testTarget(
      name: "DiagnosisTests", dependencies: ["Diagnosis", "Recordings", "CognitoWire", "SignInModel", "ModelChecking"]),
  ]
)
