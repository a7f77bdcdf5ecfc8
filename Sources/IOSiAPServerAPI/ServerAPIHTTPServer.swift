import CMicroHTTPD
import Foundation
import IOSiAPCore

/// `ServerAPI` (or any handler of its requests) over HTTP, on 127.0.0.1 unless told otherwise, with GNU
/// libmicrohttpd parsing the requests (its limits: see Sources/CMicroHTTPD/shim.h). This file only carries requests to the handler and
/// its answers back.
public final class ServerAPIHTTPServer: Sendable {
    /// Answers one request; must not trap on what a client sends.
    public typealias Handler = @Sendable (ServerAPIRequest) -> ServerAPIResponse
    /// The port it listens on (the one the system chose, when asked for port 0).
    public let port: UInt16
    private let daemon: Locked<OpaquePointer?>
    private let handler: Unmanaged<Connections>

    /// A request body larger than this is answered 413 (no endpoint served takes more than a few hundred bytes).
    static let maximumBodySize = 64 * 1024

    /// Sent with every answer, the server's own (413) as the handler's, unless the handler sets its own value: no
    /// answer is taken for another type, runs anything, is framed by another site or kept in a cache.
    static let baselineHeaders = ["X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
                                  "Cache-Control": "no-store"]

    /// The request headers handed to the handler besides Authorization (`ServerAPIRequest.headers`): what the
    /// transaction manager's page checks a request's origin and token with.
    static let forwardedHeaders = ["Host", "Origin", "Content-Type", "Sec-Fetch-Site", "X-IOSiAP-Token"]

    /// Starts serving `handler` on `address` (an IPv4 address; loopback by default) and `port` (0: a free port).
    public init(address: String = "127.0.0.1", port: UInt16, handler serve: @escaping Handler) throws(StoreError) {
        let handler = Unmanaged.passRetained(Connections(serve))
        guard let daemon = iosiap_mhd_start(address, port, { context, connection, url, method, _, upload, uploadSize, state in
            guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
            return Unmanaged<Connections>.fromOpaque(context).takeUnretainedValue()
                .serve(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, state: state)
        }, handler.toOpaque(), { _, _, state, _ in
            // The request is over (answered, or the client went away): free what was kept for it.
            if let state, let pending = state.pointee {
                Unmanaged<PendingRequest>.fromOpaque(pending).release()
                state.pointee = nil
            }
        }) else {
            handler.release()
            throw StoreError(.systemError, "cannot listen on \(address):\(port) (not an IPv4 address of this machine, or in use?)")
        }
        self.handler = handler
        self.daemon = Locked(daemon)
        self.port = iosiap_mhd_port(daemon)
    }

    /// Stops listening; requests under way are finished first.
    public func stop() {
        daemon.withLock { daemon in
            if let running = daemon { MHD_stop_daemon(running) }
            daemon = nil
        }
    }

    deinit {
        stop()
        handler.release()
    }

    /// What is kept for a request between libmicrohttpd's calls: the body received so far.
    private final class PendingRequest {
        var body: [UInt8] = []
        var tooLarge = false
    }

    private final class Connections: Sendable {
        let handle: Handler
        init(_ handle: @escaping Handler) { self.handle = handle }

        /// libmicrohttpd's access handler: called once when the headers are in, then for each piece of the
        /// body, then once more with nothing left to upload, when it answers.
        func serve(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                   upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                   state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
            guard let kept = state.pointee else {
                state.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
                return .YES
            }
            let pending = Unmanaged<PendingRequest>.fromOpaque(kept).takeUnretainedValue()
            if uploadSize.pointee > 0 {
                if let upload, !pending.tooLarge, pending.body.count + uploadSize.pointee <= ServerAPIHTTPServer.maximumBodySize {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                } else {
                    pending.tooLarge = true
                    pending.body = []
                }
                uploadSize.pointee = 0
                return .YES
            }
            let response = pending.tooLarge ? ServerAPIResponse.text(413, "Payload Too Large")
                : handle(ServerAPIRequest(method: String(cString: method), path: String(cString: url),
                                          query: Self.queryItems(connection), authorization: Self.header(connection, "Authorization"),
                                          body: pending.body, headers: Self.forwardedHeaders(connection)))
            return Self.respond(connection, response)
        }

        private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
            MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
        }

        private static func forwardedHeaders(_ connection: OpaquePointer) -> [String: String] {
            var headers: [String: String] = [:]
            for name in ServerAPIHTTPServer.forwardedHeaders {
                headers[name.lowercased()] = header(connection, name)
            }
            return headers
        }

        /// Queues `response` (its body copied) with its Content-Type and other headers.
        private static func respond(_ connection: OpaquePointer, _ response: ServerAPIResponse) -> MHD_Result {
            let created = response.body.withUnsafeBytes { body in
                MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let created else { return .NO }
            defer { MHD_destroy_response(created) }
            let headers = ServerAPIHTTPServer.baselineHeaders.merging(response.headers) { $1 }
            for (name, value) in [("Content-Type", response.contentType)] + headers.sorted(by: { $0.key < $1.key }) {
                guard MHD_add_response_header(created, name, value) == .YES else { return .NO }
            }
            return MHD_queue_response(connection, UInt32(response.status), created)
        }

        /// The query arguments, decoded by libmicrohttpd, in order; repeated names stay repeated.
        private static func queryItems(_ connection: OpaquePointer) -> [ServerAPIRequest.QueryItem] {
            final class Items { var list: [ServerAPIRequest.QueryItem] = [] }
            let items = Items()
            withExtendedLifetime(items) {
                _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let items = Unmanaged<Items>.fromOpaque(context).takeUnretainedValue()
                    // At most 64 arguments are read: more is no request of Apple's API.
                    guard items.list.count < 64 else { return .NO }
                    items.list.append(.init(String(cString: key), value.map { String(cString: $0) }))
                    return .YES
                }, Unmanaged.passUnretained(items).toOpaque())
            }
            return items.list
        }
    }
}
