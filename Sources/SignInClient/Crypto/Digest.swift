import CognitoSRPMath

/// SHA-1, SHA-256, HMAC and HKDF (apple/swift-crypto), shared with the simulated pool.
typealias Digest = CognitoSRPMath.Digest
