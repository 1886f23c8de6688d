import CDrupal
import DrupalSDK
import FoundationEssentials

// Streamed files: drupal_file_upload_path, drupal_file_download, drupal_file_entity_download
// (async and _sync), with drupal_transfer_options (progress and write callbacks). The streaming,
// the size cap and what is left on disk are the core's (Files.swift, LiveSession+Files.swift).

public typealias CProgressCallback = @convention(c) (Int64, Int64, UnsafeMutableRawPointer?) -> Int32
public typealias CWriteCallback = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32

private let knownTransferVersions: ClosedRange<UInt32> = 1...1

/// The callbacks of a drupal_transfer_options (NULL: none), as the core's closures (also for
/// drupal_jsonapi_upload_path), each run as a callback of `client` (see CallbackFrames).
func transferCallbacks(_ options: UnsafePointer<drupal_transfer_options>?, of client: OpaquePointer?) throws
    -> (progress: TransferProgress?, write: BodySink?) {
    guard let options else { return (nil, nil) }
    let version = UnsafeRawPointer(options).load(as: UInt32.self)
    guard knownTransferVersions.contains(version) else {
        throw DrupalError(.invalidArgument, "unknown drupal_transfer_options version \(version)")
    }
    let values = options.pointee
    guard let client = ClientHandle.from(client)?.identity else { throw DrupalError(.invalidArgument, "client is NULL") }
    var progress: TransferProgress?
    if let callback = values.progress {
        let bits = UInt(bitPattern: values.progress_userdata)
        progress = { done, total in
            insideCallback(of: client) { callback(done, total ?? -1, UnsafeMutableRawPointer(bitPattern: bits)) == 0 }
        }
    }
    var write: BodySink?
    if let callback = values.write {
        let bits = UInt(bitPattern: values.write_userdata)
        write = { bytes in
            insideCallback(of: client) { callback(bytes.baseAddress, bytes.count, UnsafeMutableRawPointer(bitPattern: bits)) == 0 }
        }
    }
    return (progress, write)
}

private func uploadPathOperation(_ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                                 _ field: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                 _ filename: UnsafePointer<CChar>?,
                                 _ options: UnsafePointer<drupal_transfer_options>?, of client: OpaquePointer?) throws
    -> DrupalOperation {
    let callbacks = try transferCallbacks(options, of: client)
    if callbacks.write != nil { throw DrupalError(.invalidArgument, "options.write is for downloads") }
    return .uploadFile(FileUpload(entityType: try CInput.string(type, "entity_type"),
                                  bundle: try CInput.string(bundle, "bundle"), field: try CInput.string(field, "field"),
                                  path: try CInput.path(path, "path"),
                                  filename: try CInput.optionalString(filename, "filename"),
                                  progress: callbacks.progress))
}

private func downloadOperation(_ source: () throws -> FileDownload.Source, _ path: UnsafePointer<CChar>?,
                               _ options: UnsafePointer<drupal_transfer_options>?, of client: OpaquePointer?) throws
    -> DrupalOperation {
    let callbacks = try transferCallbacks(options, of: client)
    let destination: FileDownload.Destination
    switch (try CInput.optionalPath(path, "path"), callbacks.write) {
    case (let path?, nil): destination = .file(path)
    case (nil, let write?): destination = .sink(write)
    case (nil, nil): throw DrupalError(.invalidArgument, "path is NULL and options has no write callback")
    case (_?, _?): throw DrupalError(.invalidArgument, "give a path or options.write, not both")
    }
    return .download(FileDownload(try source(), to: destination, progress: callbacks.progress))
}

@_cdecl("drupal_file_upload_path")
public func drupal_file_upload_path(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                    _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                                    _ field: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                    _ filename: UnsafePointer<CChar>?, _ options: UnsafePointer<drupal_transfer_options>?,
                                    _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try uploadPathOperation(type, bundle, field, path, filename, options, of: client)
    }
}

@_cdecl("drupal_file_upload_path_sync")
public func drupal_file_upload_path_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                         _ type: UnsafePointer<CChar>?, _ bundle: UnsafePointer<CChar>?,
                                         _ field: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                         _ filename: UnsafePointer<CChar>?,
                                         _ options: UnsafePointer<drupal_transfer_options>?) -> drupal_code {
    CallRunner.wait(out, client) { try uploadPathOperation(type, bundle, field, path, filename, options, of: client) }
}

@_cdecl("drupal_file_download")
public func drupal_file_download(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                 _ url: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                 _ options: UnsafePointer<drupal_transfer_options>?,
                                 _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try downloadOperation({ .url(try CInput.nonEmptyString(url, "url")) }, path, options, of: client)
    }
}

@_cdecl("drupal_file_download_sync")
public func drupal_file_download_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                      _ url: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                      _ options: UnsafePointer<drupal_transfer_options>?) -> drupal_code {
    CallRunner.wait(out, client) { try downloadOperation({ .url(try CInput.nonEmptyString(url, "url")) }, path, options, of: client) }
}

@_cdecl("drupal_file_entity_download")
public func drupal_file_entity_download(_ call: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                        _ fileID: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                        _ options: UnsafePointer<drupal_transfer_options>?,
                                        _ callback: CCallback?, _ userdata: UnsafeMutableRawPointer?) -> drupal_code {
    CallRunner.start(call, client, callback, userdata) {
        try downloadOperation({ .fileEntity(try CInput.string(fileID, "file_id")) }, path, options, of: client)
    }
}

@_cdecl("drupal_file_entity_download_sync")
public func drupal_file_entity_download_sync(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ client: OpaquePointer?,
                                             _ fileID: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
                                             _ options: UnsafePointer<drupal_transfer_options>?) -> drupal_code {
    CallRunner.wait(out, client) {
        try downloadOperation({ .fileEntity(try CInput.string(fileID, "file_id")) }, path, options, of: client)
    }
}
