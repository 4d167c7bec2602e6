import CognitoWire
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SimulatedCognito

/// An HTTP/1.1 server that speaks Cognito's JSON 1.1 protocol in front of a `CognitoBackend`
/// (the simulated pool): `POST /` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Op>`.
/// Each request runs as a Task off the event loop; its answer is written back on the
/// connection's loop. Connections are kept alive and many may be open at once.
package final class CognitoServer: Sendable {
  /// The default largest request body, in bytes (1 MiB).
  package static let defaultMaxBodyBytes = 1 << 20
  /// How long a `timeout` fault holds the connection before closing it, by default (seconds).
  package static let defaultTimeoutFaultSeconds = 30

  package let host: String
  /// The bound port (the one the system chose when asked for port 0).
  package let port: Int
  private let channel: any Channel
  private let connections: Connections

  private init(host: String, port: Int, channel: any Channel, connections: Connections) {
    self.host = host
    self.port = port
    self.channel = channel
    self.connections = connections
  }

  /// The server's URL, for `HTTPCognitoBackend(endpoint:)`.
  package var endpoint: URL {
    let shown = host.contains(":") ? "[\(host)]" : host
    guard let url = URL(string: "http://\(shown):\(port)/") else {
      preconditionFailure("http://\(shown):\(port)/ is a URL: host is an address that bound")
    }
    return url
  }

  /// Binds `host:port` (port 0: a free port) and serves `backend` until `stop()`; `control`,
  /// when given, answers the endpoints under `/_signin-spec/` (`ControlExchange`).
  package static func start(
    backend: any CognitoBackend, control: ServerControl? = nil, host: String = "127.0.0.1", port: Int = 0,
    maxBodyBytes: Int = defaultMaxBodyBytes, timeoutFaultSeconds: Int = defaultTimeoutFaultSeconds
  ) async throws -> CognitoServer {
    let connections = Connections()
    let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        connections.add(channel)
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
          try channel.pipeline.syncOperations.addHandler(
            CognitoRequestHandler(
              backend: backend, control: control, maxBodyBytes: maxBodyBytes,
              timeoutFaultSeconds: timeoutFaultSeconds))
        }
      }
      .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
    let channel = try await bootstrap.bind(host: host, port: port).get()
    guard let bound = channel.localAddress?.port else {
      try? await channel.close()
      throw CognitoServerError.noPort
    }
    return CognitoServer(host: host, port: bound, channel: channel, connections: connections)
  }

  /// Returns once every connection open now has closed (for tests: a client went away).
  package func connectionsClosed() async {
    for connection in connections.current() { try? await connection.closeFuture.get() }
  }

  /// Stops accepting connections and closes the open ones (a request in flight gets no answer).
  package func stop() async {
    try? await channel.close()
    for connection in connections.closeAll() { try? await connection.closeFuture.get() }
  }
}

/// The open connections, so `stop()` can close them. `@unchecked Sendable` is safe: `open`
/// is read and written only under `lock`.
private final class Connections: @unchecked Sendable {
  private let lock = NSLock()
  private var open: [ObjectIdentifier: any Channel] = [:]
  private var closed = false

  /// Tracks `channel` until it closes; one accepted after `closeAll()` is closed at once.
  func add(_ channel: any Channel) {
    let id = ObjectIdentifier(channel)
    let accepted = lock.withLock {
      if !closed { open[id] = channel }
      return !closed
    }
    guard accepted else {
      channel.close(promise: nil)
      return
    }
    channel.closeFuture.whenComplete { [self] _ in lock.withLock { open[id] = nil } }
  }

  /// The open connections.
  func current() -> [any Channel] { lock.withLock { Array(open.values) } }

  /// Closes every open connection and returns them.
  func closeAll() -> [any Channel] {
    let channels = lock.withLock {
      closed = true
      return Array(open.values)
    }
    for channel in channels { channel.close(promise: nil) }
    return channels
  }
}

package enum CognitoServerError: Error, CustomStringConvertible {
  case noPort
  package var description: String { "the server socket has no port" }
}

/// One connection: collects a request (head, body up to the limit, end), answers it through
/// `CognitoExchange` in a Task and writes the answer on the channel's event loop.
/// `HTTPServerPipelineHandler` (from `configureHTTPServerPipeline`) holds pipelined requests
/// until the answer before them is written, so one request at a time reaches this handler.
final class CognitoRequestHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let backend: any CognitoBackend
  private let control: ServerControl?
  private let maxBodyBytes: Int
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []
  private var tooLarge = false

  private let timeoutFaultSeconds: Int

  init(backend: any CognitoBackend, control: ServerControl?, maxBodyBytes: Int, timeoutFaultSeconds: Int) {
    self.backend = backend
    self.control = control
    self.maxBodyBytes = maxBodyBytes
    self.timeoutFaultSeconds = timeoutFaultSeconds
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let requestHead):
      head = requestHead
      body = []
      tooLarge = false
    case .body(let chunk):
      // Over the limit the rest of the body is read and dropped: memory stays bounded, and
      // the client, still sending, is not reset before it can read the answer.
      guard !tooLarge else { return }
      if body.count + chunk.readableBytes > maxBodyBytes {
        tooLarge = true
        body = []
      } else {
        body += chunk.readableBytesView
      }
    case .end:
      guard let requestHead = head else { return }
      head = nil
      let keepAlive = requestHead.isKeepAlive && !tooLarge
      if tooLarge {
        ResponseWriter.write(CognitoExchange.tooLarge(limit: maxBodyBytes), keepAlive: false, context: context)
        return
      }
      let requestBody = body
      body = []
      Self.answer(
        method: requestHead.method.rawValue, uri: requestHead.uri,
        target: requestHead.headers.first(name: "X-Amz-Target"), body: requestBody, backend: backend,
        control: control, keepAlive: keepAlive, timeoutFaultSeconds: timeoutFaultSeconds,
        context: NIOLoopBound(context, eventLoop: context.eventLoop))
    }
  }

  /// Answers off the event loop, then writes the answer on the connection's loop.
  private static func answer(
    method: String, uri: String, target: String?, body: [UInt8], backend: any CognitoBackend,
    control: ServerControl?, keepAlive: Bool, timeoutFaultSeconds: Int, context: NIOLoopBound<ChannelHandlerContext>
  ) {
    let loop = context.eventLoop
    Task { @Sendable in
      let reply: CognitoExchange.Reply
      if ControlExchange.handles(uri) {
        reply = await ControlExchange.answer(method: method, uri: uri, body: body, control: control)
      } else if let jwks = control?.jwks, method == "GET", uri.hasSuffix("/.well-known/jwks.json") {
        reply = await KeySetExchange.answer(uri: uri, control: control, jwks: jwks)
      } else {
        reply = await CognitoExchange.answer(
          method: method, target: target, body: body, backend: backend, log: control?.log)
      }
      loop.execute {
        if reply == .holdThenClose {
          let channel = context.value.channel
          loop.scheduleTask(in: .seconds(Int64(timeoutFaultSeconds))) { channel.close(promise: nil) }
        } else {
          ResponseWriter.write(reply, keepAlive: keepAlive, context: context.value)
        }
      }
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}

/// Writes an answer on the connection's event loop (`context` is used only there).
enum ResponseWriter {
  static func write(_ reply: CognitoExchange.Reply, keepAlive: Bool, context: ChannelHandlerContext) {
    guard case .answer(let status, let extra, let bytes) = reply else {
      context.close(promise: nil)
      return
    }
    var headers = HTTPHeaders(extra)
    headers.add(name: "Content-Length", value: String(bytes.count))
    headers.add(name: "x-amzn-RequestId", value: UUID().uuidString.lowercased())
    headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
    let head = HTTPResponseHead(
      version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
    context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
    if !bytes.isEmpty {
      var buffer = context.channel.allocator.buffer(capacity: bytes.count)
      buffer.writeBytes(bytes)
      context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
    }
    let done = context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)))
    if !keepAlive {
      let channel = context.channel
      done.whenComplete { _ in channel.close(promise: nil) }
    }
  }
}
