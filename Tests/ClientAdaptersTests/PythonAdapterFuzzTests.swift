import AdapterFuzzing
import Conformance
import Foundation
import Fuzzing
import SignInModel
import Testing

/// Short fuzz runs through the shipped Python adapters (`adapters/boto3`, `adapters/pycognito`),
/// against pools served in this process: each speaks the protocol for a whole run, and the
/// fuzzer finds the difference every plain-SDK client has (an unconfirmed user is an error, not
/// Amplify's confirmSignUp step). `make adapter-findings` runs them long on every model.
@Suite("The fuzzer through the shipped Python adapters")
struct PythonAdapterFuzzTests {
  static let model = AdapterFuzzTests.model

  @Test(
    "boto3: 400 cases over every flow, the adapter answers throughout; the unconfirmed user is found, shrunk to one call"
  )
  func boto3() async throws {
    try await AdapterFuzzTests.withAdapter("python3 adapters/boto3/adapter.py") { workers in
      #expect(workers.profile.name.hasPrefix("boto3 "))
      #expect(workers.profile.flows == ["userSRP", "userPassword", "customWithSRP", "customWithoutSRP", "userAuth"])
      let summary = await Fuzzer(executor: workers.executors[0]).run(seed: 1, indices: 0..<400, deadline: nil)
      #expect(summary.clientFailure == nil, "\(summary.clientFailure?.description ?? "")")
      #expect(summary.cases == 400)
      let unconfirmed = summary.findings.first {
        $0.execution.message?.contains("UserNotConfirmedException") == true
          && $0.execution.message?.contains("confirmSignUp") == true
      }
      let finding = try #require(unconfirmed, "\(summary.findings.map { $0.execution.message ?? "" })")
      #expect(finding.fuzzCase.calls.count == 1)
      #expect(finding.fuzzCase.configuration["user.status"] == "unconfirmed")
    }
  }

  @Test("pycognito: SRP sign-ins only; challenges it cannot answer are counted as unsupported, never failed")
  func pycognito() async throws {
    try await AdapterFuzzTests.withAdapter("python3 adapters/pycognito/adapter.py") { workers in
      #expect(workers.profile.flows == ["userSRP"])
      let summary = await Fuzzer(executor: workers.executors[0]).run(seed: 3, indices: 0..<40, deadline: nil)
      #expect(summary.clientFailure == nil, "\(summary.clientFailure?.description ?? "")")
      #expect(summary.cases == 40 && summary.srpCases == 40, "every case signs in with SRP")
      #expect(summary.covered.keys.contains("signIn / correctPassword -> done"))
      for reason in summary.unsupported.keys {
        #expect(
          ["MFA_SETUP", "SELECT_MFA_TYPE", "EMAIL_OTP"].contains { reason == "the challenge \($0)" }, "\(reason)")
      }
    }
  }
}
