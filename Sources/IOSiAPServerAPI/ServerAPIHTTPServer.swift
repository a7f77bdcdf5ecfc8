import CMicroHTTPD
import Foundation
import IOSiAPCore

/// `ServerAPI` over HTTP on 127.0.0.1, with GNU libmicrohttpd parsing the requests (its limits: see
/// Sources/CMicroHTTPD/shim.h). This file only carries requests to `ServerAPI.handle` and its answers back.
public final class ServerAPIHTTPServer: Sendable {
    /// The port it listens on (the one the system chose, when asked for port 0).
    public let port: UInt16
    private let daemon: Locked<OpaquePointer?>
    private let handler: Unmanaged<Handler>

    /// A request body larger than this is answered 413 (no endpoint served takes more than a few hundred bytes).
    static let maximumBodySize = 64 * 1024

    /// Starts serving `api` on 127.0.0.1:`port` (0: a free port).
    public init(api: ServerAPI, port: UInt16) throws(StoreError) {
        let handler = Unmanaged.passRetained(Handler(api: api))
        guard let daemon = iosiap_mhd_start_loopback(port, { context, connection, url, method, _, upload, uploadSize, state in
            guard let context, let connection, let url, let method, let uploadSize, let state else { return .NO }
            return Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue()
                .serve(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, state: state)
        }, handler.toOpaque(), { _, _, state, _ in
            // The request is over (answered, or the client went away): free what was kept for it.
            if let state, let pending = state.pointee {
                Unmanaged<PendingRequest>.fromOpaque(pending).release()
                state.pointee = nil
            }
        }) else {
            handler.release()
            throw StoreError(.systemError, "cannot listen on 127.0.0.1:\(port) (in use?)")
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

    private final class Handler: Sendable {
        let api: ServerAPI
        init(api: ServerAPI) { self.api = api }

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
                : api.handle(ServerAPIRequest(method: String(cString: method), path: String(cString: url),
                                              query: Self.queryItems(connection),
                                              authorization: MHD_lookup_connection_value(connection, .HEADER_KIND, "Authorization")
                                                  .map { String(cString: $0) },
                                              body: pending.body))
            return response.body.withUnsafeBytes { body in
                iosiap_mhd_respond(connection, UInt32(response.status), body.baseAddress, body.count, response.contentType)
            }
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
